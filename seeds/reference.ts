import type { Knex } from 'knex';

/** The built-in test payment provider's merchant account: the zero-configuration default. */
export const TEST_MERCHANT_ACCOUNT = { label: 'test', identifier: 'test-provider', status: 'active' } as const;

/** Reference data every installation needs. Safe to run on every start. */
export async function seedReferenceData(db: Knex | Knex.Transaction): Promise<void> {
  await db('merchantAccounts').insert(TEST_MERCHANT_ACCOUNT).onConflict('label').ignore();
}
