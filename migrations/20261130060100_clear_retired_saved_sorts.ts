import type { Knex } from 'knex';

/**
 * Purchases no longer sort by refunded amount nor certificates by learner email (no index can give those orders), so
 * a saved filter keeping one of those sorts was refused each time its list opened. Those sorts are forgotten: a null
 * sort is the list's own default order (api/src/admin/lists/saved-filters.ts); the filters themselves are kept.
 */
const RETIRED_SORTS: readonly [resource: string, field: string][] = [
  ['purchases', 'refundedAmount'],
  ['certificates', 'learnerEmail'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [resource, field] of RETIRED_SORTS)
    await knex('saved_filters').where({ resource }).whereRaw(`sort->>'field' = ?`, [field]).update({ sort: null });
}

/** Nothing to put back: the lists refuse those sorts. */
export async function down(): Promise<void> {}
