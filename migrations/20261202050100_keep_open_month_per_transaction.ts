import type { Knex } from 'knex';

/**
 * A money write reads the first open month's instant once per transaction (docs/domain.md §21): the shared lock it
 * took then keeps any close waiting until the transaction ends, so the instant cannot change under it. It is kept in
 * a transaction-local setting (undone with the transaction, or with a rolled-back savepoint, which also gives the
 * lock back), and a fulfilment's later lines read only that: no lock, no query.
 */

const MONTH_CLOSE_LOCK = 2026120205;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION finance_open_from() RETURNS timestamptz LANGUAGE plpgsql VOLATILE AS $$
    DECLARE
      kept text := current_setting('finance.open_from', true);
      open_from timestamptz;
    BEGIN
      IF kept = 'none' THEN RETURN NULL; END IF;
      IF kept <> '' THEN RETURN to_timestamp(kept::float8); END IF;
      PERFORM pg_advisory_xact_lock_shared(${MONTH_CLOSE_LOCK});
      SELECT f.open_from INTO open_from FROM finance_closed_through f;
      PERFORM set_config('finance.open_from', coalesce(extract(epoch FROM open_from)::text, 'none'), true);
      RETURN open_from;
    END $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION finance_open_from() RETURNS timestamptz LANGUAGE plpgsql VOLATILE AS $$
    DECLARE open_from timestamptz;
    BEGIN
      PERFORM pg_advisory_xact_lock_shared(${MONTH_CLOSE_LOCK});
      SELECT f.open_from INTO open_from FROM finance_closed_through f;
      RETURN open_from;
    END $$;
  `);
}
