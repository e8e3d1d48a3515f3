import { table } from '../db/base-model';

/** An internal note staff add on a person (and maybe one of their purchases); never shown to them. */
export class StaffNote extends table('staffNotes') {
  declare id: string;
  declare userId: string;
  declare purchaseId: string | null;
  declare authorId: string | null;
  declare authorEmail: string;
  declare body: string;
  declare createdAt: Date;
}

/** One staff member's filters and sort of one console list, under a name (api/src/admin/lists/saved-filters.ts). */
export class SavedFilter extends table('savedFilters', { jsonAttributes: ['filter', 'sort'] }) {
  declare id: string;
  declare userId: string;
  declare resource: string;
  declare name: string;
  declare filter: Record<string, unknown>;
  declare sort: { field: string; order: 'ASC' | 'DESC' } | null;
  declare createdAt: Date;
}
