import CurrencyExchangeIcon from '@mui/icons-material/CurrencyExchange';
import type { ReactNode } from 'react';
import {
  AutocompleteInput,
  Datagrid,
  DateField,
  ReferenceField,
  ReferenceInput,
  ReferenceManyField,
  SearchInput,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
} from 'react-admin';
import { ChargeMoneyField } from '../common/ChargeMoneyField';
import { NoneFound } from '../common/EmptyState';
import { dateRangeFilters, moneyRangeFilters } from '../common/inputs';
import { IdentifierTitle, MerchantList } from '../common/MerchantRecord';
import { PurchaseRows } from '../purchases/PurchaseRows';

const NOTE =
  'Refunds are made from a purchase (the Refund button) and recorded here as the payment provider confirmed them; they cannot be changed.';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search provider id" />,
  <ReferenceInput key="merchantChargeId" source="merchantChargeId" reference="merchant-charges" alwaysOn>
    <AutocompleteInput label="Charge" />
  </ReferenceInput>,
  <ReferenceInput key="requestedById" source="requestedById" reference="users">
    <AutocompleteInput label="Requested by" />
  </ReferenceInput>,
  ...moneyRangeFilters('amount', 'Amount'),
  <ReferenceInput key="merchantAccountId" source="merchantAccountId" reference="merchant-accounts">
    <SelectInput label="Merchant account" />
  </ReferenceInput>,
  ...dateRangeFilters('createdAt', 'Created'),
];

/** Refunds as rows, in the list and inside a charge's or a purchase's page (a ReferenceManyField). */
export function RefundRows({ empty, hideCharge = false }: { empty: ReactNode; hideCharge?: boolean }) {
  return (
    <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoneFound>{empty}</NoneFound>}>
      <DateField source="createdAt" showTime />
      <ChargeMoneyField source="amount" />
      <TextField source="reason" sortable={false} />
      <ReferenceField source="requestedById" reference="users" link="show" sortable={false} emptyText="The provider" />
      {hideCharge ? null : (
        <ReferenceField source="merchantChargeId" reference="merchant-charges" link="show" sortable={false} />
      )}
      <TextField source="identifier" sortable={false} />
    </Datagrid>
  );
}

function MerchantRefundList() {
  return (
    <MerchantList filters={filters} icon={CurrencyExchangeIcon} emptyTitle="No refunds yet" note={NOTE}>
      <RefundRows empty="No refund matches these filters." />
    </MerchantList>
  );
}

function MerchantRefundShow() {
  return (
    <Show title={<IdentifierTitle noun="Refund" />}>
      <SimpleShowLayout>
        <ChargeMoneyField source="amount" />
        <TextField source="reason" />
        <ReferenceField
          source="requestedById"
          reference="users"
          link="show"
          emptyText="The provider (refunded there)"
        />
        <ReferenceField source="merchantChargeId" reference="merchant-charges" link="show" />
        <ReferenceManyField
          label="Purchase"
          reference="purchases"
          source="merchantChargeId"
          target="merchantChargeId"
          sort={{ field: 'createdAt', order: 'DESC' }}
        >
          <PurchaseRows empty="No purchase records this charge." />
        </ReferenceManyField>
        <DateField source="createdAt" showTime />
        <TextField source="identifier" />
        <TextField source="idempotencyKey" />
        <ReferenceField source="merchantAccountId" reference="merchant-accounts" link="show" />
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}

export default {
  list: MerchantRefundList,
  show: MerchantRefundShow,
  icon: CurrencyExchangeIcon,
  recordRepresentation: 'identifier',
};
