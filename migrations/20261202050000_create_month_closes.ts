import type { Knex } from 'knex';
import { FAIL_FAST_ON_LOCKS } from './rollup-sql';

/**
 * Closing a month (docs/domain.md §21): its figures frozen in `month_closes`, and nothing written into it afterwards.
 * The first instant of the first open month is kept in a one-row table; every money table's BEFORE trigger compares
 * the row's date with it (one read of a one-row table) and, when the date falls in a closed month, books the row at
 * that instant instead, naming the month it belongs to in `belongs_to_month` (YYYY-MM).
 *
 * A writer takes a shared advisory lock before reading that instant, and the close takes the same lock exclusively
 * before moving it: writers never wait for one another, a close waits for the writers already under way (their rows
 * are in the figures it freezes) and the writers that come after it read the new instant.
 */

/** The advisory lock writers share and a close takes alone; api/src/finance/month-close/close.ts takes it too. */
const MONTH_CLOSE_LOCK = 2026120205;

/** Money tables and the dates that place their rows in a month: written at insert, and those set by an update. */
const DATED: {
  table: string;
  inserted: string[];
  updated: { column: string; when: string }[];
  /** The columns whose update runs the trigger. */
  updateOf: string[];
}[] = [
  { table: 'merchant_charges', inserted: ['created_at'], updated: [], updateOf: [] },
  { table: 'split_lines', inserted: ['created_at'], updated: [], updateOf: [] },
  { table: 'invoices', inserted: ['supplied_at', 'issued_at'], updated: [], updateOf: [] },
  {
    table: 'merchant_refunds',
    inserted: ['created_at'],
    // A pending refund that succeeds after its month closed counts when it succeeds.
    updated: [{ column: 'created_at', when: `NEW.status = 'succeeded' AND OLD.status IS DISTINCT FROM 'succeeded'` }],
    updateOf: ['status', 'created_at'],
  },
  {
    table: 'merchant_disputes',
    inserted: ['created_at', 'closed_at'],
    updated: [{ column: 'closed_at', when: 'NEW.closed_at IS DISTINCT FROM OLD.closed_at' }],
    updateOf: ['closed_at'],
  },
  {
    table: 'payouts',
    inserted: ['created_at', 'paid_at'],
    updated: [{ column: 'paid_at', when: 'NEW.paid_at IS DISTINCT FROM OLD.paid_at' }],
    updateOf: ['paid_at'],
  },
];

const moveIfClosed = (column: string) => `
    IF NEW.${column} < open_from THEN
      NEW.belongs_to_month := coalesce(NEW.belongs_to_month, to_char(NEW.${column} AT TIME ZONE 'UTC', 'YYYY-MM'));
      NEW.${column} := open_from;
    END IF;`;

function triggerFunction({ table, inserted, updated, updateOf }: (typeof DATED)[number]): string {
  const onUpdate = updated
    .map((u) => `    IF TG_OP = 'UPDATE' AND ${u.when} THEN${moveIfClosed(u.column)}\n    END IF;`)
    .join('\n');
  return `
    CREATE FUNCTION ${table}_in_open_month() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE open_from timestamptz := finance_open_from();
    BEGIN
      IF open_from IS NULL THEN RETURN NEW; END IF;
      IF TG_OP = 'INSERT' THEN${inserted.map(moveIfClosed).join('')}
      END IF;
${onUpdate}
      RETURN NEW;
    END $$;
    CREATE TRIGGER ${table}_in_open_month BEFORE INSERT${updateOf.length ? ` OR UPDATE OF ${updateOf.join(', ')}` : ''}
      ON ${table} FOR EACH ROW EXECUTE FUNCTION ${table}_in_open_month();`;
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw(FAIL_FAST_ON_LOCKS);
  await knex.raw(`
    CREATE TABLE month_closes (
      month text PRIMARY KEY CONSTRAINT month_closes_month_shape CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
      closed_at timestamptz NOT NULL,
      closed_by_id uuid REFERENCES users(id) ON DELETE SET NULL,
      closed_by_email text,
      -- Per currency, as api/src/finance/month-close/figures.ts computes them at the close.
      figures jsonb NOT NULL
    );
    CREATE INDEX month_closes_closed_at_month ON month_closes (closed_at, month);
    -- Never reopened nor rewritten: a closed month's figures are what the accountant received.
    CREATE FUNCTION month_closes_never_rewritten() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'a closed month is never reopened' USING ERRCODE = 'check_violation'; END $$;
    CREATE TRIGGER month_closes_never_rewritten BEFORE UPDATE OR DELETE ON month_closes
      FOR EACH ROW EXECUTE FUNCTION month_closes_never_rewritten();

    -- One row once a month is closed: the first instant of the first open month (UTC).
    CREATE TABLE finance_closed_through (
      one boolean PRIMARY KEY DEFAULT true CONSTRAINT finance_closed_through_one_row CHECK (one),
      open_from timestamptz NOT NULL
    );

    -- The first open month's first instant, after taking the lock a close takes alone: a close under way is waited
    -- for, and its new instant is read (each statement of a volatile function sees what committed before it).
    CREATE FUNCTION finance_open_from() RETURNS timestamptz LANGUAGE plpgsql VOLATILE AS $$
    DECLARE open_from timestamptz;
    BEGIN
      PERFORM pg_advisory_xact_lock_shared(${MONTH_CLOSE_LOCK});
      SELECT f.open_from INTO open_from FROM finance_closed_through f;
      RETURN open_from;
    END $$;
  `);
  for (const dated of DATED) {
    await knex.raw(`ALTER TABLE ${dated.table} ADD COLUMN belongs_to_month text`);
    await knex.raw(triggerFunction(dated));
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const { table } of DATED) {
    await knex.raw(`DROP TRIGGER ${table}_in_open_month ON ${table}`);
    await knex.raw(`DROP FUNCTION ${table}_in_open_month()`);
    await knex.raw(`ALTER TABLE ${table} DROP COLUMN belongs_to_month`);
  }
  await knex.raw(`
    DROP FUNCTION finance_open_from();
    DROP TABLE finance_closed_through;
    DROP TABLE month_closes;
    DROP FUNCTION month_closes_never_rewritten();
  `);
}
