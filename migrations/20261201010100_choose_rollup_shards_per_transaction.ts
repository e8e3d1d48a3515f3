import type { Knex } from 'knex';

/**
 * The finance rollups' triggers spread each key's figures over shard rows, summed on read, so that sales committing
 * at once do not queue on one row; the shard was the connection's (its process id modulo 8). Ten pooled connections
 * then share eight shards, and a fulfilment whose connection shares one waits, from its charge's insert to the other's
 * commit, for the whole of the other's transaction. A transaction now takes the lowest shard no other open transaction
 * holds (a transaction-scoped advisory lock, tried without waiting) and keeps it for all its rollup writes; quiet days
 * stay on shard 0, busy ones use as many shards as sales were in progress at once (up to 32, then the connection's).
 * The advisory lock only steers writers apart: the rows' own locks still keep every sum exact.
 *
 * Each rollup function that picked the connection's shard is rewritten to call rollup_shard() instead (the active
 * learners' days wrote the shard without a cast).
 */

const CONNECTION_SHARD = '(pg_backend_pid() % 8)::smallint';
const UNCAST_CONNECTION_SHARD = 'pg_backend_pid() % 8';
const TRANSACTION_SHARD = 'rollup_shard()';

/** Rewrites every function of this schema whose body holds `from`, with `to` in its place. */
const rewrite = (from: string, to: string) => `
  DO $$ DECLARE f oid; BEGIN
    FOR f IN SELECT p.oid FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = current_schema() AND p.proname <> 'rollup_shard' AND strpos(p.prosrc, '${from}') > 0 LOOP
      EXECUTE replace(pg_get_functiondef(f), '${from}', '${to}');
    END LOOP;
  END $$;`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- The advisory locks' first key names this use; the second is the shard. The chosen shard is kept for the rest of
    -- the transaction in a transaction-local setting.
    CREATE FUNCTION rollup_shard() RETURNS smallint LANGUAGE plpgsql AS $$
    DECLARE
      held text := current_setting('rollups.shard', true);
      shard int;
    BEGIN
      IF held <> '' THEN RETURN held::smallint; END IF;
      FOR shard IN 0..31 LOOP
        IF pg_try_advisory_xact_lock(1919906661, shard) THEN
          PERFORM set_config('rollups.shard', shard::text, true);
          RETURN shard;
        END IF;
      END LOOP;
      shard := pg_backend_pid() % 32;
      PERFORM set_config('rollups.shard', shard::text, true);
      RETURN shard;
    END $$;
    ${rewrite(CONNECTION_SHARD, TRANSACTION_SHARD)}
    ${rewrite(UNCAST_CONNECTION_SHARD, TRANSACTION_SHARD)}`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`${rewrite(TRANSACTION_SHARD, CONNECTION_SHARD)} DROP FUNCTION rollup_shard();`);
}
