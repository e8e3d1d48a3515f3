import type { Knex } from 'knex';

/**
 * A completed transfer support made (a buyer who typed the wrong address) rather than one the recipient accepted:
 * the recipient's My purchases says the purchase was moved to them, not offered. Earlier moves are found by their
 * audit entry, which names the purchase and the person it went to.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('purchase_user_transfers', (t) => {
    t.boolean('by_support').notNullable().defaultTo(false);
  });
  await knex.raw(`
    UPDATE purchase_user_transfers t SET by_support = true
     WHERE t.transfer_state = 'COMPLETED'
       AND EXISTS (SELECT 1 FROM audit_logs a
                    WHERE a.action = 'transfer.moved-by-support' AND a.resource = 'purchases'
                      AND a.record_id = t.purchase_id::text AND a.after->>'userId' = t.target_user_id::text)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('purchase_user_transfers', (t) => {
    t.dropColumn('by_support');
  });
}
