import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import {
  AutocompleteInput,
  Datagrid,
  DateField,
  List,
  Pagination,
  ReferenceField,
  ReferenceInput,
  ReferenceManyField,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  useRecordContext,
} from 'react-admin';
import { EmptyState, NoneFound } from '../common/EmptyState';
import { dateRangeFilters } from '../common/inputs';
import { section } from '../common/Section';
import { StatusChipField } from '../common/StatusChipField';
import { UserNameAndEmail } from '../users/UserNameAndEmail';
import { CancelTransferButton } from './CancelTransferButton';
import { TRANSFER_STATE_CHOICES, TRANSFER_STATE_LOOKS, type PurchaseUserTransfer } from './choices';
import { TransferRows } from './TransferRows';

const LIFECYCLE =
  'A buyer can give an individual purchase to someone else within 7 days of buying it. Each transfer goes Available → Initiated (the owner names someone) → ' +
  'Verified (they signed in) → Confirmed → Completed, or ends Canceled or Expired; a canceled one is followed by a fresh Available one.';

const filters = [
  <SelectInput key="transferState" source="transferState" choices={TRANSFER_STATE_CHOICES} alwaysOn />,
  <ReferenceInput key="sourceUserId" source="sourceUserId" reference="users" alwaysOn>
    <AutocompleteInput label="From" />
  </ReferenceInput>,
  <ReferenceInput key="targetUserId" source="targetUserId" reference="users">
    <AutocompleteInput label="To" />
  </ReferenceInput>,
  ...dateRangeFilters('expiresAt', 'Expires'),
  ...dateRangeFilters('createdAt', 'Created'),
];

/** The product a transfer is about, through its purchase. */
function ProductOfPurchase(_props: { label?: string; sortable?: boolean }) {
  return (
    <ReferenceField source="purchaseId" reference="purchases" link={false}>
      <ReferenceField source="productId" reference="products" link="show" />
    </ReferenceField>
  );
}

function TransferList() {
  return (
    <List
      filters={filters}
      sort={{ field: 'createdAt', order: 'DESC' }}
      exporter={false}
      empty={
        <EmptyState icon={SwapHorizIcon} title="No transfers yet">
          {LIFECYCLE}
        </EmptyState>
      }
    >
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={<NoneFound>No transfer matches these filters.</NoneFound>}
      >
        <DateField source="createdAt" showTime />
        <StatusChipField source="transferState" looks={TRANSFER_STATE_LOOKS} />
        <ProductOfPurchase label="Product" sortable={false} />
        <ReferenceField source="purchaseId" reference="purchases" link="show" sortable={false} />
        <ReferenceField source="sourceUserId" reference="users" link="show" sortable={false}>
          <UserNameAndEmail />
        </ReferenceField>
        <ReferenceField source="targetUserId" reference="users" link="show" emptyText="—" sortable={false}>
          <UserNameAndEmail />
        </ReferenceField>
        <DateField source="expiresAt" showTime />
        <CancelTransferButton label="" />
      </Datagrid>
    </List>
  );
}

function TransferTitle() {
  const transfer = useRecordContext<PurchaseUserTransfer>();
  return (
    <>
      {transfer
        ? `Transfer · ${TRANSFER_STATE_LOOKS[transfer.transferState]?.label ?? transfer.transferState}`
        : 'Transfer'}
    </>
  );
}

/** Every transfer of the same purchase, oldest first, this one marked. */
function PurchaseHistory(_props: { label?: false }) {
  const transfer = useRecordContext<PurchaseUserTransfer>();
  if (!transfer) return null;
  return section(
    "This purchase's transfers",
    null,
    <ReferenceManyField
      reference="purchase-user-transfers"
      source="purchaseId"
      target="purchaseId"
      sort={{ field: 'createdAt', order: 'ASC' }}
      perPage={50}
      pagination={<Pagination />}
    >
      <TransferRows current={String(transfer.id)} empty="No other transfer." />
    </ReferenceManyField>,
    'Each offer of the purchase, oldest first; the one shown above is highlighted.',
  );
}

function TransferShow() {
  return (
    <Show
      title={<TransferTitle />}
      actions={
        <TopToolbar>
          <CancelTransferButton />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <StatusChipField source="transferState" looks={TRANSFER_STATE_LOOKS} />
        <ProductOfPurchase label="Product" />
        <ReferenceField source="purchaseId" reference="purchases" link="show" />
        <ReferenceField source="sourceUserId" reference="users" link="show">
          <UserNameAndEmail />
        </ReferenceField>
        <ReferenceField source="targetUserId" reference="users" link="show" emptyText="Not named yet">
          <UserNameAndEmail />
        </ReferenceField>
        <DateField source="createdAt" showTime />
        <DateField source="expiresAt" showTime />
        <DateField source="confirmedAt" showTime emptyText="—" />
        <DateField source="completedAt" showTime emptyText="—" />
        <DateField source="canceledAt" showTime emptyText="—" />
        <TextField source="id" />
        <PurchaseHistory label={false} />
      </SimpleShowLayout>
    </Show>
  );
}

export default {
  list: TransferList,
  show: TransferShow,
  icon: SwapHorizIcon,
  recordRepresentation: (t: PurchaseUserTransfer) =>
    `Transfer ${TRANSFER_STATE_LOOKS[t.transferState]?.label ?? t.transferState}`,
};
