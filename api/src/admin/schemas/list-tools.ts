import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../list-query/schemas';
import { Id } from './fields';

/** A bulk action's records: 1 to 500 ids (a page of the largest list), each once. */
export const BulkIds = z
  .object({
    ids: z
      .array(Id)
      .min(1, 'select at least one record')
      .max(MAX_PAGE_SIZE, `at most ${MAX_PAGE_SIZE} records at once`)
      .transform((ids) => [...new Set(ids)]),
  })
  .strict();

/** What a bulk action did: how many, which, and each id it left alone with the reason. */
export interface BulkOutcome {
  done: number;
  doneIds: string[];
  skipped: { id: string; reason: string; message: string }[];
}

/** Which list's saved filters. */
export const SavedFiltersQuery = z.object({ resource: z.string().min(1).max(100) }).strict();

const SortOrder = z.enum(['ASC', 'DESC']);

/** A list's current filters and sort, under a name; the filters are checked as the list would read them. */
export const SavedFilterBody = z
  .object({
    resource: z.string().min(1).max(100),
    name: z.string().trim().min(1, 'name it').max(100, 'at most 100 characters'),
    filter: z.record(z.string(), z.unknown()),
    sort: z
      .object({ field: z.string().min(1).max(100), order: SortOrder })
      .strict()
      .nullable()
      .default(null),
  })
  .strict();
export type SavedFilterRequest = z.input<typeof SavedFilterBody>;
export type SavedFilterInput = z.output<typeof SavedFilterBody>;

export interface SavedFilterRecord {
  id: string;
  resource: string;
  name: string;
  filter: Record<string, unknown>;
  sort: { field: string; order: 'ASC' | 'DESC' } | null;
  createdAt: Date;
}
