import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import {
  AutocompleteInput,
  ReferenceField,
  ReferenceInput,
  SelectInput,
  TopToolbar,
  useRecordContext,
} from 'react-admin';
import { date, ref, status, text } from '../common/columns';
import { dateRangeFilters } from '../common/inputs';
import { RecordList } from '../common/RecordList';
import { RecordShow } from '../common/RecordShow';
import { section } from '../common/Section';
import { person } from '../users/UserNameAndEmail';
import { CancelTransferButton } from './CancelTransferButton';
import { TRANSFER_STATE_CHOICES, TRANSFER_STATE_LOOKS, type PurchaseUserTransfer } from './choices';
import { TransfersOfPurchase } from './TransferRows';

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
    <RecordList filters={filters} icon={SwapHorizIcon}>
      {date('createdAt')}
      {status(TRANSFER_STATE_LOOKS, 'transferState')}
      <ProductOfPurchase label="Product" sortable={false} />
      {ref('purchaseId', 'purchases')}
      {person('sourceUserId')}
      {person('targetUserId', { emptyText: '—' })}
      {date('expiresAt')}
      <CancelTransferButton label="" />
    </RecordList>
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
    <TransfersOfPurchase source="purchaseId" current={String(transfer.id)} empty="No other transfer." />,
    'Each offer of the purchase, oldest first; the one shown above is highlighted.',
  );
}

function TransferShow() {
  return (
    <RecordShow
      title={<TransferTitle />}
      actions={
        <TopToolbar>
          <CancelTransferButton />
        </TopToolbar>
      }
    >
      {status(TRANSFER_STATE_LOOKS, 'transferState')}
      <ProductOfPurchase label="Product" />
      {ref('purchaseId', 'purchases')}
      {person('sourceUserId')}
      {person('targetUserId', { emptyText: 'Not named yet' })}
      {date('createdAt')}
      {date('expiresAt')}
      {date('confirmedAt', { emptyText: '—' })}
      {date('completedAt', { emptyText: '—' })}
      {date('canceledAt', { emptyText: '—' })}
      {text('id')}
      <PurchaseHistory label={false} />
    </RecordShow>
  );
}

export default {
  list: TransferList,
  show: TransferShow,
  icon: SwapHorizIcon,
  recordRepresentation: (t: PurchaseUserTransfer) =>
    `Transfer ${TRANSFER_STATE_LOOKS[t.transferState]?.label ?? t.transferState}`,
};
