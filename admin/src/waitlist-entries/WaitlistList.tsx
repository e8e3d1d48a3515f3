import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import { useMediaQuery, type Theme } from '@mui/material';
import { DeleteButton, ReferenceField, SimpleList, usePermissions, useTranslate } from 'react-admin';
import { date, numeric, ref, text } from '../common/columns';
import { referenceFilter, searchFilter } from '../common/filters';
import { dateRangeFilters } from '../common/inputs';
import type { WaitlistEntryRecord } from '@contract/catalog/waitlist/schemas';
import type { Wire } from '@contract/shared/wire';
import { NoneFound } from '../common/EmptyState';
import { RecordList } from '../common/RecordList';
import { canWrite } from '../permissions';

/** Someone on a waitlist, as the API answers it (`waitlist-entries`). */
type WaitlistEntry = Wire<WaitlistEntryRecord>;

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

/** On a phone: one line per person (email, product, when they joined and were notified), opening their entry. */
function NarrowRows() {
  const translate = useTranslate();
  return (
    <SimpleList<WaitlistEntry>
      rowClick="show"
      primaryText={(entry) => entry.email}
      secondaryText={<ReferenceField source="productId" reference="products" link={false} />}
      tertiaryText={(entry) =>
        entry.notifiedAt
          ? `${translate('resources.waitlist-entries.fields.notifiedAt')} ${new Date(entry.notifiedAt).toLocaleDateString()}`
          : `${translate('resources.waitlist-entries.fields.createdAt')} ${new Date(entry.createdAt).toLocaleDateString()}`
      }
      empty={<NoneFound>{translate('resources.waitlist-entries.noneFound')}</NoneFound>}
    />
  );
}

export function WaitlistList() {
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <RecordList filters={filters} exporter icon={HourglassEmptyIcon} rows={narrow ? <NarrowRows /> : undefined}>
      {waitlistColumns}
      <RemoveButton />
    </RecordList>
  );
}
