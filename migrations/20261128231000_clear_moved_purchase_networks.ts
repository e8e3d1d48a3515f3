import type { Knex } from 'knex';

/**
 * A purchase given to someone else (a transfer, or support moving it) no longer keeps its buyer's network, city and
 * region: they are the buyer's, not the new owner's, and no rule of finance reads them. The country stays, the
 * sale's tax evidence. Purchases moved before now (each move ends a transfer COMPLETED) are cleared here; a move
 * clears them from now on.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    UPDATE purchases p SET ip_address = NULL, city = NULL, state = NULL
     WHERE (p.ip_address IS NOT NULL OR p.city IS NOT NULL OR p.state IS NOT NULL)
       AND EXISTS (SELECT 1 FROM purchase_user_transfers t WHERE t.purchase_id = p.id AND t.transfer_state = 'COMPLETED')`);
}

/** What was cleared is gone: nothing to put back. */
export async function down(): Promise<void> {}
