import type { Knex } from 'knex';
import { addUpdatedAtTrigger, timestamps } from './helpers';

export async function up(knex: Knex): Promise<void> {
  // Where a recipient is paid by Stripe Connect; a recipient without a row is paid by hand (a bank transfer).
  await knex.schema.createTable('payout_recipients', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().unique().references('users.id').onDelete('RESTRICT');
    t.text('stripe_account_id').notNullable();
    timestamps(knex, t);
    t.check(`stripe_account_id ~ '^acct_[A-Za-z0-9]+$'`, [], 'payout_recipients_stripe_account_id_format');
  });
  await addUpdatedAtTrigger(knex, 'payout_recipients');

  // One row per run, whoever or whatever started it (the monthly job has no user).
  await knex.schema.createTable('payout_runs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('started_by_id').references('users.id').onDelete('SET NULL');
    t.text('started_by_email');
    t.timestamp('earned_before', { useTz: true }).notNullable(); // the holding period's end when it ran
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('payouts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('run_id').notNullable().references('payout_runs.id').onDelete('RESTRICT');
    t.uuid('recipient_id').notNullable().references('users.id').onDelete('RESTRICT');
    t.text('currency').notNullable();
    t.integer('amount').notNullable(); // cents, what the covered lines sum to
    t.text('method').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.text('reference'); // the bank transfer's id, or Stripe's transfer id
    t.text('error'); // the last failure, kept until it is paid
    t.timestamp('paid_at', { useTz: true });
    timestamps(knex, t);
    t.unique(['run_id', 'recipient_id', 'currency'], { indexName: 'payouts_one_per_recipient_and_currency' });
    t.check('amount > 0', [], 'payouts_amount_positive');
    t.check(`method IN ('manual', 'stripe')`, [], 'payouts_method_known');
    t.check(`status IN ('pending', 'paid', 'failed')`, [], 'payouts_status_known');
    t.check(`(status = 'paid') = (paid_at IS NOT NULL AND reference IS NOT NULL)`, [], 'payouts_paid_has_reference');
    t.index(['recipient_id', 'currency']);
    t.index(['status', 'id']);
  });
  // The key every provider call for this payout carries, so a retry replays rather than pays again.
  await knex.raw(
    `ALTER TABLE payouts ADD COLUMN idempotency_key text GENERATED ALWAYS AS ('payout:' || id::text) STORED`,
  );
  await addUpdatedAtTrigger(knex, 'payouts');

  // The split lines each payout covers: a line's id is the key, so no line is ever covered twice.
  await knex.schema.createTable('payout_lines', (t) => {
    t.bigInteger('split_line_id').primary().references('split_lines.id').onDelete('RESTRICT');
    t.uuid('payout_id').notNullable().references('payouts.id').onDelete('RESTRICT');
    t.index('payout_id');
  });

  // The monthly run's queue: the schedule adds one job a month, one replica takes it.
  await knex.raw(`SELECT pgboss.create_queue('monthly-payout-run', '{"policy":"standard"}'::json)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`SELECT pgboss.delete_queue('monthly-payout-run')`);
  await knex.schema.dropTable('payout_lines');
  await knex.schema.dropTable('payouts');
  await knex.schema.dropTable('payout_runs');
  await knex.schema.dropTable('payout_recipients');
}
