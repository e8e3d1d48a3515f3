import { Chip } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { OutboxEmail, OutboxStatus } from './types';

const LOOK: Record<OutboxStatus, { label: string; color: 'success' | 'error' | 'warning' }> = {
  sent: { label: 'console.outbox.status.sent', color: 'success' },
  failed: { label: 'console.outbox.status.failed', color: 'error' },
  pending: { label: 'console.outbox.status.pending', color: 'warning' },
};

/** The delivery status as a coloured chip. The props are read by Datagrid and the show layout. */
export function StatusField(_props: { label?: string; sortBy?: string; source?: string }) {
  const record = useRecordContext<OutboxEmail>();
  const translate = useTranslate();
  if (!record) return null;
  const look = LOOK[record.status] ?? { label: record.status, color: 'warning' as const };
  return (
    <Chip
      size="small"
      label={translate(look.label, { _: look.label })}
      color={look.color}
      variant={record.status === 'pending' ? 'outlined' : 'filled'}
    />
  );
}
