import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // What the processor sent to the school's bank, imported from it (docs/domain.md, Reconciliation).
  await knex.schema.createTable('processor_payouts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('merchant_account_id').notNullable().references('merchant_accounts.id').onDelete('RESTRICT');
    t.text('identifier').notNullable(); // po_… at Stripe
    t.bigInteger('amount').notNullable(); // cents sent to the bank
    t.text('currency').notNullable();
    t.text('status').notNullable();
    t.timestamp('arrival_on', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable(); // the processor's time
    t.timestamp('imported_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['merchant_account_id', 'identifier'], { indexName: 'processor_payouts_once' });
    t.index(['created_at', 'id']);
  });

  // Every movement of the processor's balance, imported from it: each is matched to one entry of our books.
  await knex.schema.createTable('processor_balance_transactions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('merchant_account_id').notNullable().references('merchant_accounts.id').onDelete('RESTRICT');
    t.text('identifier').notNullable(); // txn_… at Stripe
    t.text('kind').notNullable();
    t.text('source_identifier'); // the charge, refund, dispute or transfer it moved money for
    t.text('charge_identifier'); // the charge a refund or dispute belongs to
    t.text('checkout_identifier'); // a charge's hosted checkout session, when the processor says
    t.integer('amount').notNullable(); // signed cents: positive into the balance, negative out of it
    t.integer('fee').notNullable().defaultTo(0);
    t.integer('net').notNullable();
    t.text('currency').notNullable();
    t.uuid('processor_payout_id').references('processor_payouts.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable(); // the processor's time
    t.timestamp('imported_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['merchant_account_id', 'identifier'], { indexName: 'processor_balance_transactions_once' });
    t.check(
      `kind IN ('charge', 'refund', 'refund_failure', 'dispute', 'dispute_reversal', 'transfer', 'fee', 'other')`,
      [],
      'processor_balance_transactions_kind_known',
    );
    t.index(['created_at', 'id']);
    t.index(['processor_payout_id']);
    t.index(['source_identifier']);
  });

  // A processor's transaction and the one entry of our books it is: the two keys say each side is matched once.
  await knex.schema.createTable('reconciliation_matches', (t) => {
    t.uuid('balance_transaction_id').primary().references('processor_balance_transactions.id').onDelete('CASCADE');
    t.text('book_kind').notNullable();
    t.uuid('book_id').notNullable(); // merchant_charges, merchant_refunds, merchant_disputes or payouts, by kind
    t.timestamp('matched_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['book_kind', 'book_id'], { indexName: 'reconciliation_matches_book_once' });
    t.check(
      `book_kind IN ('charge', 'refund', 'refund_failure', 'dispute', 'dispute_reversal', 'payout')`,
      [],
      'reconciliation_matches_book_kind_known',
    );
  });

  // The built-in test provider's own balance and payouts, kept as a processor keeps them.
  await knex.schema.createTable('test_provider_payouts', (t) => {
    t.text('identifier').primary();
    t.bigInteger('amount').notNullable();
    t.text('currency').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('test_provider_balance_transactions', (t) => {
    t.text('identifier').primary();
    t.text('kind').notNullable();
    t.text('source_identifier').notNullable();
    t.text('charge_identifier').notNullable();
    t.integer('amount').notNullable();
    t.integer('fee').notNullable().defaultTo(0);
    t.text('currency').notNullable();
    t.text('payout_identifier').references('test_provider_payouts.identifier');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['payout_identifier']);
  });

  // The daily import's queue: the schedule adds one job a day, one replica takes it.
  await knex.raw(`SELECT pgboss.create_queue('daily-reconciliation-import', '{"policy":"standard"}'::json)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`SELECT pgboss.delete_queue('daily-reconciliation-import')`);
  await knex.schema.dropTable('test_provider_balance_transactions');
  await knex.schema.dropTable('test_provider_payouts');
  await knex.schema.dropTable('reconciliation_matches');
  await knex.schema.dropTable('processor_balance_transactions');
  await knex.schema.dropTable('processor_payouts');
}
