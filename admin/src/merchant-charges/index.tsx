import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import {
  AutocompleteInput,
  Datagrid,
  DateField,
  FunctionField,
  Labeled,
  List,
  ReferenceField,
  ReferenceInput,
  ReferenceManyField,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  useRecordContext,
} from 'react-admin';
import { EmptyState, NoneFound } from '../common/EmptyState';
import { moneyRangeFilters } from '../common/inputs';
import { JsonBlock } from '../common/JsonBlock';
import { MerchantStatusEdit, merchantFilters, MERCHANT_NOTE } from '../common/MerchantRecord';
import { CURRENCY_CHOICES, formatMoney } from '../common/money';
import { MoneyField } from '../common/MoneyField';
import { ACTIVE_INACTIVE, StatusChipField } from '../common/StatusChipField';
import { DisputeRows } from '../merchant-disputes';
import { RefundRows } from '../merchant-refunds';
import { PurchaseRows } from '../purchases/PurchaseRows';

interface MerchantCharge {
  id: string;
  identifier: string;
  amount: number;
  fee: number;
  net: number;
  refundAmount: number;
  currency: string;
  metadata: Record<string, unknown>;
}

const filters = merchantFilters(
  <ReferenceInput key="userId" source="userId" reference="users" alwaysOn>
    <AutocompleteInput label="User" />
  </ReferenceInput>,
  <ReferenceInput key="merchantProductId" source="merchantProductId" reference="merchant-products">
    <AutocompleteInput label="Product record" />
  </ReferenceInput>,
  <SelectInput key="currency" source="currency" choices={CURRENCY_CHOICES} />,
  ...moneyRangeFilters('amount', 'Amount'),
  ...moneyRangeFilters('refundAmount', 'Refunded'),
);

function MerchantChargeList() {
  return (
    <List
      filters={filters}
      exporter={false}
      sort={{ field: 'createdAt', order: 'DESC' }}
      empty={
        <EmptyState icon={ReceiptLongIcon} title="No charges yet">
          Every paid checkout records the provider's charge here: amount, fee, net and refunds, in cents.{' '}
          {MERCHANT_NOTE}
        </EmptyState>
      }
    >
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={<NoneFound>No charge matches these filters.</NoneFound>}
      >
        <DateField source="createdAt" showTime />
        <ReferenceField source="userId" reference="users" link="show" sortable={false} />
        <MoneyField source="amount" />
        <MoneyField source="fee" sortable={false} />
        <MoneyField source="net" />
        <MoneyField source="refundAmount" />
        <StatusChipField source="status" looks={ACTIVE_INACTIVE} />
        <TextField source="identifier" sortable={false} />
      </Datagrid>
    </List>
  );
}

function ChargeTitle() {
  const charge = useRecordContext<MerchantCharge>();
  return <>{charge ? `Charge ${formatMoney(charge.amount, charge.currency)} · ${charge.identifier}` : 'Charge'}</>;
}

function MerchantChargeShow() {
  return (
    <Show title={<ChargeTitle />}>
      <SimpleShowLayout>
        <ReferenceField source="userId" reference="users" link="show" />
        <MoneyField source="amount" />
        <MoneyField source="fee" />
        <MoneyField source="net" />
        <MoneyField source="refundAmount" />
        <FunctionField<MerchantCharge>
          label="Kept after refunds"
          render={(c) => formatMoney(c.amount - c.refundAmount, c.currency)}
        />
        <TextField source="currency" />
        <ReferenceField source="merchantProductId" reference="merchant-products" link="show" />
        <ReferenceField source="merchantCustomerId" reference="merchant-customers" link="show" emptyText="—" />
        <ReferenceField source="merchantAccountId" reference="merchant-accounts" link="show" />
        <TextField source="identifier" />
        <StatusChipField source="status" looks={ACTIVE_INACTIVE} />
        <DateField source="createdAt" showTime />
        <ReferenceManyField
          label="Purchase"
          reference="purchases"
          target="merchantChargeId"
          sort={{ field: 'createdAt', order: 'DESC' }}
        >
          <PurchaseRows empty="No purchase records this charge." />
        </ReferenceManyField>
        <ReferenceManyField
          label="Refunds"
          reference="merchant-refunds"
          target="merchantChargeId"
          sort={{ field: 'createdAt', order: 'DESC' }}
        >
          <RefundRows hideCharge empty="Nothing has been refunded." />
        </ReferenceManyField>
        <ReferenceManyField
          label="Disputes"
          reference="merchant-disputes"
          target="merchantChargeId"
          sort={{ field: 'createdAt', order: 'DESC' }}
        >
          <DisputeRows hideCharge empty="The buyer has never disputed this charge." />
        </ReferenceManyField>
        <FunctionField<MerchantCharge>
          source="metadata"
          render={(c) => <JsonBlock value={c.metadata} label="Charge metadata" />}
        />
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}

function MerchantChargeEdit() {
  return (
    <MerchantStatusEdit>
      <Labeled>
        <MoneyField source="amount" />
      </Labeled>
      <Labeled>
        <ReferenceField source="userId" reference="users" link="show" />
      </Labeled>
    </MerchantStatusEdit>
  );
}

export default {
  list: MerchantChargeList,
  show: MerchantChargeShow,
  edit: MerchantChargeEdit,
  icon: ReceiptLongIcon,
  recordRepresentation: (charge: MerchantCharge) =>
    `${formatMoney(charge.amount, charge.currency)} · ${charge.identifier}`,
};
