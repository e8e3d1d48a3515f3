import { Box } from '@mui/material';
import { useTranslate, type RaRecord } from 'react-admin';
import { date, status } from '../common/columns';
import { RelatedRows, Rows } from '../common/Rows';
import { person } from '../users/UserNameAndEmail';
import { CancelTransferButton } from './CancelTransferButton';
import { TRANSFER_STATE_LOOKS } from './choices';

/** Minutes are enough in a row; the transfer's page has the seconds. */
const SHORT: Intl.DateTimeFormatOptions = { dateStyle: 'short', timeStyle: 'short' };

/** A transfer's moments, in a row: when it was offered, when it expires and how it ended. */
const when = (source: string, emptyText?: string) => date(source, { options: SHORT, emptyText, sortable: false });

interface TransferRowsProps {
  /** The line shown when there are none (a key or text). */
  empty: string;
  /** The transfer the page is about, marked among its purchase's others (its Cancel button is the page's). */
  current?: string;
}

/**
 * A purchase's transfers as rows, with every timestamp (inside a ReferenceManyField on purchaseId): the history
 * of who offered it to whom and how each offer ended. A row opens the transfer.
 */
export function TransferRows({ empty, current }: TransferRowsProps) {
  const translate = useTranslate();
  return (
    <Box sx={{ width: 0, minWidth: '100%', overflowX: 'auto' }}>
      <Rows
        aria-label={translate('resources.purchase-user-transfers.rows')}
        empty={empty}
        rowSx={(record: RaRecord) => (record.id === current ? { backgroundColor: 'action.selected' } : {})}
      >
        {when('createdAt')}
        {status(TRANSFER_STATE_LOOKS, 'transferState', { sortable: false })}
        {person('sourceUserId')}
        {person('targetUserId', { emptyText: '—' })}
        {when('expiresAt')}
        {when('confirmedAt', '—')}
        {when('completedAt', '—')}
        {when('canceledAt', '—')}
        <CancelTransferButton label="" skip={current} />
      </Rows>
    </Box>
  );
}

/** The transfers of a purchase, oldest first: below the purchase, or below one of them (`source`: its purchaseId). */
export function TransfersOfPurchase({ source, ...rows }: TransferRowsProps & { source?: string; label?: false }) {
  return (
    <RelatedRows
      label={false}
      reference="purchase-user-transfers"
      source={source}
      target="purchaseId"
      sort={{ field: 'createdAt', order: 'ASC' }}
      perPage={50}
      paginated
      rows={<TransferRows {...rows} />}
    />
  );
}
