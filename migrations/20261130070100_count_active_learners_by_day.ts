import type { Knex } from 'knex';
import { FAIL_FAST_ON_LOCKS } from './rollup-sql';

/**
 * Active learners since a day, read from a few rows a day rather than one row a learner: each learner counted on
 * the day of their last activity (learner_last_active), moved from day to day as it changes, so the learners active
 * since a day are the sum over that day and those after it, exactly. A learner's first progress of a day moves them
 * once; later writes that day touch nothing here. Spread over eight rows a day (by connection) so learners starting
 * their day at once do not queue on one row.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(FAIL_FAST_ON_LOCKS);
  await knex.raw(`
    CREATE TABLE learner_last_active_days (
      day date NOT NULL,
      shard smallint NOT NULL,
      learners integer NOT NULL,
      PRIMARY KEY (day, shard)
    );
    INSERT INTO learner_last_active_days (day, shard, learners)
    SELECT (last_active_at AT TIME ZONE 'UTC')::date, 0, count(*) FROM learner_last_active GROUP BY 1;

    CREATE FUNCTION learner_last_active_days_move(at timestamptz, delta integer) RETURNS void LANGUAGE sql AS $$
      INSERT INTO learner_last_active_days AS d (day, shard, learners)
      VALUES ((at AT TIME ZONE 'UTC')::date, pg_backend_pid() % 8, delta)
      ON CONFLICT (day, shard) DO UPDATE SET learners = d.learners + excluded.learners;
    $$;

    CREATE FUNCTION learner_last_active_days_keep() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        PERFORM learner_last_active_days_move(NEW.last_active_at, 1);
      ELSIF TG_OP = 'DELETE' THEN
        PERFORM learner_last_active_days_move(OLD.last_active_at, -1);
      ELSIF (OLD.last_active_at AT TIME ZONE 'UTC')::date IS DISTINCT FROM (NEW.last_active_at AT TIME ZONE 'UTC')::date THEN
        PERFORM learner_last_active_days_move(OLD.last_active_at, -1);
        PERFORM learner_last_active_days_move(NEW.last_active_at, 1);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER learner_last_active_days_kept AFTER INSERT OR UPDATE OR DELETE ON learner_last_active
      FOR EACH ROW EXECUTE FUNCTION learner_last_active_days_keep();

    CREATE FUNCTION learner_last_active_days_emptied() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN DELETE FROM learner_last_active_days; RETURN NULL; END $$;
    CREATE TRIGGER learner_last_active_days_emptied AFTER TRUNCATE ON learner_last_active
      FOR EACH STATEMENT EXECUTE FUNCTION learner_last_active_days_emptied();`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER learner_last_active_days_emptied ON learner_last_active;
    DROP FUNCTION learner_last_active_days_emptied();
    DROP TRIGGER learner_last_active_days_kept ON learner_last_active;
    DROP FUNCTION learner_last_active_days_keep();
    DROP FUNCTION learner_last_active_days_move(timestamptz, integer);
    DROP TABLE learner_last_active_days;`);
}
