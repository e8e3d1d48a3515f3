import EventIcon from '@mui/icons-material/Event';
import { date, ref, text, url } from '../common/columns';
import { referenceFilter, searchFilter } from '../common/filters';
import { dateRangeFilters } from '../common/inputs';
import { RecordList } from '../common/RecordList';

const filters = [
  searchFilter('resources.workshop-sessions.search'),
  referenceFilter('productId', 'products', { alwaysOn: true }),
  ...dateRangeFilters('startsAt', 'Starts'),
];

/** A session's columns; `withProduct` in the list of every session (not under its product). */
export const sessionColumns = (withProduct: boolean) => [
  ...(withProduct ? [ref('productId', 'products')] : []),
  text('title', { sortable: true }),
  date('startsAt', { sortable: true }),
  date('endsAt', { sortable: true }),
  text('timeZone'),
  url('joinUrl', { emptyText: 'resources.workshop-sessions.noJoinUrl' }),
];

export function SessionList() {
  return (
    <RecordList filters={filters} icon={EventIcon} sort={{ field: 'startsAt', order: 'ASC' }}>
      {sessionColumns(true)}
    </RecordList>
  );
}
