import type { ReactNode } from 'react';
import { Box } from '@mui/material';
import { Datagrid, DateField, ReferenceField, type RaRecord } from 'react-admin';
import { NoneFound } from '../common/EmptyState';
import { StatusChipField } from '../common/StatusChipField';
import { UserNameAndEmail } from '../users/UserNameAndEmail';
import { CancelTransferButton } from './CancelTransferButton';
import { TRANSFER_STATE_LOOKS } from './choices';

/** Minutes are enough in a row; the transfer's page has the seconds. */
const SHORT: Intl.DateTimeFormatOptions = { dateStyle: 'short', timeStyle: 'short' };

interface TransferRowsProps {
  empty: ReactNode;
  /** The transfer the page is about, marked among its purchase's others (its Cancel button is the page's). */
  current?: string;
}

/**
 * A purchase's transfers as rows, with every timestamp (inside a ReferenceManyField on purchaseId): the history
 * of who offered it to whom and how each offer ended. A row opens the transfer.
 */
export function TransferRows({ empty, current }: TransferRowsProps) {
  return (
    <Box sx={{ width: 0, minWidth: '100%', overflowX: 'auto' }}>
      <Datagrid
        aria-label="Transfers"
        rowClick="show"
        bulkActionButtons={false}
        empty={<NoneFound>{empty}</NoneFound>}
        rowSx={(record: RaRecord) => (record.id === current ? { backgroundColor: 'action.selected' } : {})}
      >
        <DateField source="createdAt" showTime options={SHORT} sortable={false} />
        <StatusChipField source="transferState" looks={TRANSFER_STATE_LOOKS} sortable={false} />
        <ReferenceField source="sourceUserId" reference="users" link="show" sortable={false}>
          <UserNameAndEmail />
        </ReferenceField>
        <ReferenceField source="targetUserId" reference="users" link="show" emptyText="—" sortable={false}>
          <UserNameAndEmail />
        </ReferenceField>
        <DateField source="expiresAt" showTime options={SHORT} sortable={false} />
        <DateField source="confirmedAt" showTime options={SHORT} emptyText="—" sortable={false} />
        <DateField source="completedAt" showTime options={SHORT} emptyText="—" sortable={false} />
        <DateField source="canceledAt" showTime options={SHORT} emptyText="—" sortable={false} />
        <CancelTransferButton label="" skip={current} />
      </Datagrid>
    </Box>
  );
}
