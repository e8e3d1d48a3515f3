import { usePermissions } from 'react-admin';
import { ref, text } from '../common/columns';
import { RecordShow } from '../common/RecordShow';
import { canRead } from '../permissions';
import { waitlistColumns } from './WaitlistList';

/** One entry: its columns, and (for those who read the outbox: admins) the email that last told them it opened. */
export function WaitlistShow() {
  const { permissions } = usePermissions();
  return (
    <RecordShow actions={false}>
      {waitlistColumns}
      {canRead(permissions, 'outbox-emails')
        ? ref('outboxEmailId', 'outbox-emails', { emptyText: 'resources.waitlist-entries.notNotified' })
        : null}
      {text('id')}
    </RecordShow>
  );
}
