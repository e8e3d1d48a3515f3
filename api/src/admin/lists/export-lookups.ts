import { derived, type CsvColumn } from '../../http/csv-columns';
import type { ExportLookup } from '../resource';

/**
 * The lookups and cells most console exports share: a person named by email and name where the list links to them,
 * a record by its name, a fraction as the percentage the console shows.
 */

/** The person `from` points at: `<as>Email` and `<as>Name` beside the row. */
export const person = (from: string, as: string): ExportLookup => ({
  from,
  table: 'users',
  fields: { [`${as}Email`]: 'email', [`${as}Name`]: 'name' },
});

/** The product `from` points at: `<as>` is its name. */
export const productNamed = (from: string, as: string): ExportLookup => ({
  from,
  table: 'products',
  fields: { [as]: 'name' },
});

/** A fraction (0.25) as the console shows it: 25%. */
export const percentage = (header: string, field: string): CsvColumn =>
  derived(header, (row) => (row[field] == null ? null : `${Math.round(Number(row[field]) * 10_000) / 100}%`));
