import MarkEmailReadOutlinedIcon from '@mui/icons-material/MarkEmailReadOutlined';
import SendIcon from '@mui/icons-material/Send';
import { SelectInput } from 'react-admin';
import { date, numeric, status, text } from '../common/columns';
import { BulkActionButton } from '../common/BulkActionButton';
import { RecordList } from '../common/RecordList';
import { SearchInput } from '../common/SearchInput';
import { KIND_CHOICES, STATUS_CHOICES, STATUS_LOOKS } from './choices';
import { RetryButton } from './RetryButton';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="console.outbox.search" />,
  <SelectInput key="status" source="status" choices={STATUS_CHOICES} alwaysOn />,
  <SelectInput key="kind" source="kind" choices={KIND_CHOICES} alwaysOn />,
];

/** The selected failed or sent emails queued again at once (the others are said to be skipped, and why). */
const bulkActions = <BulkActionButton action="outbox-emails/resend" icon={<SendIcon />} />;

export function OutboxEmailList() {
  return (
    <RecordList
      filters={filters}
      bulkActionButtons={bulkActions}
      icon={MarkEmailReadOutlinedIcon}
      texts={{
        title: 'console.outbox.empty.title',
        body: 'console.outbox.empty.body',
        noMatch: 'console.outbox.empty.noMatch',
      }}
      title="console.outbox.title"
    >
      {date('createdAt', { label: 'console.outbox.created' })}
      {text('toAddress', { sortable: true })}
      {text('subject')}
      {text('kind')}
      {status(STATUS_LOOKS)}
      {numeric('attempts')}
      {date('sentAt', { emptyText: '—', sortable: false })}
      <RetryButton />
    </RecordList>
  );
}
