import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import { DeleteButton, usePermissions } from 'react-admin';
import { date, numeric, ref, text } from '../common/columns';
import { referenceFilter, searchFilter } from '../common/filters';
import { dateRangeFilters } from '../common/inputs';
import { RecordList } from '../common/RecordList';
import { canWrite } from '../permissions';

const filters = [
  searchFilter('resources.waitlist-entries.search'),
  referenceFilter('productId', 'products', { alwaysOn: true }),
  ...dateRangeFilters('createdAt', 'Joined'),
];

/** An entry's columns: who waits for which product, since when, and when they were last told it opened. */
export const waitlistColumns = [
  ref('productId', 'products'),
  text('email', { sortable: true }),
  date('createdAt', { sortable: true }),
  date('notifiedAt', { sortable: true, emptyText: 'resources.waitlist-entries.notNotified' }),
  numeric('notifiedOpening', { sortable: false }),
];

/** Removes someone who asked (support); the storefront's leave link does the same for them. */
function RemoveButton() {
  const { permissions } = usePermissions();
  if (!canWrite(permissions, 'waitlist-entries')) return null;
  return (
    <DeleteButton
      mutationMode="pessimistic"
      redirect={false}
      label="resources.waitlist-entries.remove"
      confirmTitle="resources.waitlist-entries.removeTitle"
      confirmContent="resources.waitlist-entries.removeContent"
    />
  );
}

export function WaitlistList() {
  return (
    <RecordList filters={filters} exporter icon={HourglassEmptyIcon}>
      {waitlistColumns}
      <RemoveButton />
    </RecordList>
  );
}
