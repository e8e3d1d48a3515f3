import type { Knex } from 'knex';
import { EARNED_AMOUNT, FAIL_FAST_ON_LOCKS, splitLineRollup, TRANSACTION_SHARD, addTo } from './rollup-sql';

/**
 * A payout balance holds back each recipient's positive lines of the holding period (docs/domain.md §19). Since
 * 20261208030000 it reads the period's whole days from the daily rollup and, from the ledger, the shorter part of the
 * day the period starts in: up to half a day of the school's lines, so the read still grew with its sales per day.
 * What each recipient earned per UTC hour is now kept too, so the balance reads the first day's whole hours from here
 * and from the ledger only the shorter part of one hour. Only `earned` (the positive lines of a person, the platform
 * has no payouts): kept by the ledger's own writes like the other rollups (statement-level triggers on split_lines,
 * shard rows, a correction counting its hours again, emptied with the ledger by a TRUNCATE).
 */

const TABLE = 'finance_hourly_recipient_earnings';
/** In UTC whatever the session's zone (one an odd half hour off UTC would cut its hours elsewhere). */
const UTC_HOUR = (createdAt: string) => `date_trunc('hour', ${createdAt}, 'UTC')`;

const hourlyEarnings = splitLineRollup({
  fn: `${TABLE}_add`,
  tables: [TABLE],
  column: 'hour',
  period: UTC_HOUR,
  add: (from) =>
    addTo(
      TABLE,
      { hour: UTC_HOUR('l.created_at'), currency: 'l.currency', user_id: 'l.user_id' },
      { earned: EARNED_AMOUNT },
      from,
      'l.user_id IS NOT NULL AND bool_or(l.amount > 0)',
      TRANSACTION_SHARD,
    ),
  alsoCreate: `CREATE TRIGGER split_lines_hourly_earnings_emptied AFTER TRUNCATE ON split_lines
    FOR EACH STATEMENT EXECUTE FUNCTION rollups_emptied('${TABLE}');`,
});

export async function up(knex: Knex): Promise<void> {
  await knex.raw(FAIL_FAST_ON_LOCKS);
  await knex.schema.createTable(TABLE, (t) => {
    t.timestamp('hour', { useTz: true }).notNullable();
    t.text('currency').notNullable();
    t.uuid('user_id').notNullable();
    t.smallint('shard').notNullable();
    t.bigInteger('earned').notNullable();
    t.primary(['hour', 'currency', 'user_id', 'shard']);
  });
  // Its triggers, and its rows from the lines already there, in this one transaction.
  await knex.raw(hourlyEarnings);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER split_lines_hourly_earnings_emptied ON split_lines');
  await knex.raw(`DROP FUNCTION ${TABLE}_add() CASCADE`);
  await knex.schema.dropTable(TABLE);
}
