import { describe, expect, it } from 'vitest';
import { MigrationDirectory } from '../../api/src/db/migrations';
import { createUser } from '../../seeds/factories';
import { useTestDatabase } from '../support/db';

const MIGRATION = '20261130060100_clear_retired_saved_sorts.ts';

describe('saved filters sorting by a field their list no longer offers open in its default order', () => {
  const database = useTestDatabase();
  const db = () => database().db;

  it('forgets those sorts, keeping the filters and every sort a list still offers', async () => {
    const migrations = { migrationSource: new MigrationDirectory(), name: MIGRATION };
    await db().migrate.down(migrations);
    const owner = await createUser(db(), { email: 'saved.sorts@example.com' });
    const saved = async (resource: string, name: string, sort: { field: string; order: string } | null) =>
      (
        await db()('savedFilters')
          .insert({ userId: owner.id, resource, name, filter: { status: 'Valid' }, sort })
          .returning('id')
      )[0]!.id as string;
    const ids = {
      refunded: await saved('purchases', 'By refund', { field: 'refundedAmount', order: 'DESC' }),
      byTotal: await saved('purchases', 'By total', { field: 'totalAmount', order: 'ASC' }),
      byEmail: await saved('certificates', 'By email', { field: 'learnerEmail', order: 'ASC' }),
      byName: await saved('certificates', 'By name', { field: 'learnerName', order: 'ASC' }),
      unsorted: await saved('purchases', 'Plain', null),
      // Another list's field of that name stays: only these two lists dropped those sorts.
      otherList: await saved('merchantCharges', 'Other', { field: 'refundedAmount', order: 'DESC' }),
    };

    await db().migrate.up(migrations);

    const rows = await db()('savedFilters').whereIn('id', Object.values(ids));
    const byId = Object.fromEntries(rows.map((r) => [r.id, { sort: r.sort, filter: r.filter }]));
    const filter = { status: 'Valid' };
    expect(byId).toEqual({
      [ids.refunded]: { sort: null, filter },
      [ids.byTotal]: { sort: { field: 'totalAmount', order: 'ASC' }, filter },
      [ids.byEmail]: { sort: null, filter },
      [ids.byName]: { sort: { field: 'learnerName', order: 'ASC' }, filter },
      [ids.unsorted]: { sort: null, filter },
      [ids.otherList]: { sort: { field: 'refundedAmount', order: 'DESC' }, filter },
    });
  });
});
