import type { ReactElement } from 'react';
import { DateField, NumberField, ReferenceField, TextField } from 'react-admin';
import { ChargeMoneyField } from './ChargeMoneyField';
import { MoneyField, PercentField } from './MoneyField';
import { StatusChipField } from './StatusChipField';
import type { ChipLook } from './chipLooks';

/**
 * One field of a record, the same element in a Datagrid column and in a show layout: `[date('createdAt'),
 * ref('userId', 'users')]`. Keyed by source so `pick` finds a column again. References and free text do not
 * sort (the API sorts on its own columns); dates, amounts and statuses do, unless `sortable: false`.
 */
interface ColumnOptions {
  emptyText?: string;
  sortable?: boolean;
  label?: string;
}

export const text = (source: string, { sortable = false, ...o }: ColumnOptions = {}) => (
  <TextField key={source} source={source} sortable={sortable} {...o} />
);

/** A web address: it may break anywhere, so a long one wraps in its column instead of widening the table. */
export const url = (source: string, o: ColumnOptions = {}) => (
  <TextField key={source} source={source} sortable={false} sx={{ overflowWrap: 'anywhere' }} {...o} />
);

type DateOptions = ColumnOptions & { showTime?: boolean; options?: Intl.DateTimeFormatOptions };

export const date = (source: string, { showTime = true, ...o }: DateOptions = {}) => (
  <DateField key={source} source={source} showTime={showTime} {...o} />
);

export const numeric = (source: string, o: ColumnOptions = {}) => <NumberField key={source} source={source} {...o} />;

export const money = (source: string, o: ColumnOptions = {}) => <MoneyField key={source} source={source} {...o} />;

/** An amount of a record that has no currency of its own (a refund, a dispute): in its charge's currency. */
export const chargeMoney = (source: string, o: ColumnOptions = {}) => (
  <ChargeMoneyField key={source} source={source} {...o} />
);

export const percent = (source: string, o: ColumnOptions = {}) => <PercentField key={source} source={source} {...o} />;

export const status = (looks: Record<string, ChipLook>, source = 'status', o: ColumnOptions = {}) => (
  <StatusChipField key={source} source={source} looks={looks} {...o} />
);

/** A link to the referenced record's page, shown by its recordRepresentation. */
export const ref = (source: string, reference: string, { sortable = false, ...o }: ColumnOptions = {}) => (
  <ReferenceField key={source} source={source} reference={reference} link="show" sortable={sortable} {...o} />
);

/** What a record's page ends with: when it was created and last changed, and its id. */
export const STAMPS = [date('createdAt'), date('updatedAt'), text('id')];

/** The columns of `columns` named by `sources`, in that order (e.g. a list's columns inside another page). */
export function pick(columns: readonly ReactElement[], sources: readonly string[]): ReactElement[] {
  return sources.map((source) => {
    const column = columns.find((c) => c.key === source);
    if (!column) throw new Error(`No column ${source}`);
    return column;
  });
}
