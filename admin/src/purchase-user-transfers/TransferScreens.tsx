import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import {
  AutocompleteInput,
  NullableBooleanInput,
  ReferenceField,
  ReferenceInput,
  SelectInput,
  TopToolbar,
  useRecordContext,
  useTranslate,
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
  <NullableBooleanInput
    key="started"
    source="started"
    label="resources.purchase-user-transfers.started.label"
    trueLabel="resources.purchase-user-transfers.started.yes"
    falseLabel="resources.purchase-user-transfers.started.no"
    nullLabel="resources.purchase-user-transfers.started.all"
    alwaysOn
  />,
  <SelectInput key="transferState" source="transferState" choices={TRANSFER_STATE_CHOICES} alwaysOn />,
  <ReferenceInput key="sourceUserId" source="sourceUserId" reference="users" alwaysOn>
    <AutocompleteInput label="resources.purchase-user-transfers.fields.sourceUserId" />
  </ReferenceInput>,
  <ReferenceInput key="targetUserId" source="targetUserId" reference="users">
    <AutocompleteInput label="resources.purchase-user-transfers.fields.targetUserId" />
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

export function TransferList() {
  return (
    <RecordList filters={filters} filterDefaultValues={{ started: true }} icon={SwapHorizIcon}>
      {date('createdAt')}
      {status(TRANSFER_STATE_LOOKS, 'transferState')}
      <ProductOfPurchase label="resources.purchase-user-transfers.product" sortable={false} />
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
  const translate = useTranslate();
  return (
    <>
      {transfer
        ? translate('resources.purchase-user-transfers.title', {
            state: TRANSFER_STATE_LOOKS[transfer.transferState]?.label ?? transfer.transferState,
          })
        : translate('resources.purchase-user-transfers.titleLoading')}
    </>
  );
}

/** Every transfer of the same purchase, oldest first, this one marked. */
function PurchaseHistory(_props: { label?: false }) {
  const transfer = useRecordContext<PurchaseUserTransfer>();
  const translate = useTranslate();
  if (!transfer) return null;
  return section(
    translate('resources.purchase-user-transfers.history'),
    null,
    <TransfersOfPurchase
      source="purchaseId"
      current={String(transfer.id)}
      empty="resources.purchase-user-transfers.noOther"
    />,
    translate('resources.purchase-user-transfers.historyNote'),
  );
}

export function TransferShow() {
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
      <ProductOfPurchase label="resources.purchase-user-transfers.product" />
      {ref('purchaseId', 'purchases')}
      {person('sourceUserId')}
      {person('targetUserId', { emptyText: 'resources.purchase-user-transfers.notNamed' })}
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
