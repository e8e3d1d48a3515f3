import type { Knex } from 'knex';

/**
 * What an upgrade's source was worth when the checkout was quoted (paid, net of refunds). Settlement refuses the
 * upgrade when the source is worth less by then; comparing with the credit applied was wrong when the minimum-charge
 * rule had let the credit cover a few cents more than the source was worth. Expand only: null on older checkouts,
 * which settle against their credit as before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('checkouts', (t) => {
    t.integer('upgrade_basis');
    t.check('upgrade_basis >= 0', [], 'checkouts_upgrade_basis_range');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('checkouts', (t) => t.dropColumn('upgrade_basis'));
}
