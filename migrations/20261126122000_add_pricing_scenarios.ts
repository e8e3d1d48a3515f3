import type { Knex } from 'knex';
import { addUpdatedAtTrigger, timestamps } from './helpers';

/**
 * Saved pricing scenarios (api/src/pricing-simulator/scenarios.ts): a simulator query by stable handles, the answer staff
 * accepted, and the latest run. Expand only.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('pricing_scenarios', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable().unique();
    t.jsonb('input').notNullable();
    t.jsonb('expected').notNullable();
    t.timestamp('last_run_at', { useTz: true });
    t.jsonb('last_actual');
    t.boolean('last_matches');
    t.text('last_error');
    t.uuid('created_by_id').references('users.id').onDelete('SET NULL');
    timestamps(knex, t);
    t.check(`char_length(name) BETWEEN 1 AND 200`, [], 'pricing_scenarios_name_length');
  });
  await addUpdatedAtTrigger(knex, 'pricing_scenarios');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('pricing_scenarios');
}
