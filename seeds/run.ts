import type { Knex } from 'knex';
import { seedDemoData } from './demo';
import { seedReferenceData } from './reference';

/**
 * Reference data on every run; the demo data once per database. The seed_runs row is claimed in the same
 * transaction as the load, so two starts at once cannot both load it.
 */
export async function runSeeds(db: Knex, options: { demo: boolean }): Promise<{ demoLoaded: boolean }> {
  await seedReferenceData(db);
  if (!options.demo) return { demoLoaded: false };
  return db.transaction(async (trx) => {
    const claimed = await trx('seedRuns').insert({ name: 'demo' }).onConflict('name').ignore().returning('name');
    if (!claimed.length) return { demoLoaded: false };
    await seedDemoData(trx);
    return { demoLoaded: true };
  });
}
