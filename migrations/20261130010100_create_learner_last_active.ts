import type { Knex } from 'knex';
import { FAIL_FAST_ON_LOCKS } from './rollup-sql';

/**
 * When each learner's lesson progress last moved (the latest updated_at of their progress rows), kept by triggers on
 * lesson_progress: the dashboard counts active learners from one row a person instead of every progress row.
 *
 * A write that moves progress forward only raises the time; a delete, or an update that moves a row back or to
 * someone else, takes the learner's latest time again from their rows (or forgets them when none is left).
 */

const RAISE = (rows: string) => `
  INSERT INTO learner_last_active AS a (user_id, last_active_at)
  SELECT user_id, max(updated_at) FROM ${rows} GROUP BY user_id
  ON CONFLICT (user_id) DO UPDATE SET last_active_at = excluded.last_active_at
  WHERE excluded.last_active_at > a.last_active_at;`;

const RETAKE = (users: string) => `
  WITH latest AS (
    SELECT u.user_id, (SELECT max(p.updated_at) FROM lesson_progress p WHERE p.user_id = u.user_id) AS at
      FROM (${users}) AS u(user_id)
  ), gone AS (
    DELETE FROM learner_last_active a USING latest WHERE a.user_id = latest.user_id AND latest.at IS NULL
  )
  INSERT INTO learner_last_active AS a (user_id, last_active_at)
  SELECT user_id, at FROM latest WHERE at IS NOT NULL
  ON CONFLICT (user_id) DO UPDATE SET last_active_at = excluded.last_active_at;`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(FAIL_FAST_ON_LOCKS);
  await knex.raw(`
    CREATE TABLE learner_last_active (user_id uuid PRIMARY KEY, last_active_at timestamptz NOT NULL);
    CREATE INDEX learner_last_active_at ON learner_last_active (last_active_at);

    CREATE FUNCTION learner_last_active_keep() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN ${RAISE('new_rows')}
      ELSIF TG_OP = 'DELETE' THEN ${RETAKE('SELECT DISTINCT user_id FROM old_rows')}
      ELSE
        ${RAISE('new_rows')}
        ${RETAKE(`SELECT DISTINCT o.user_id FROM old_rows o JOIN new_rows n ON n.id = o.id
                   WHERE n.updated_at < o.updated_at OR n.user_id <> o.user_id`)}
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER learner_last_active_inserted AFTER INSERT ON lesson_progress REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION learner_last_active_keep();
    CREATE TRIGGER learner_last_active_updated AFTER UPDATE ON lesson_progress
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION learner_last_active_keep();
    CREATE TRIGGER learner_last_active_deleted AFTER DELETE ON lesson_progress REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION learner_last_active_keep();

    INSERT INTO learner_last_active (user_id, last_active_at)
    SELECT user_id, max(updated_at) FROM lesson_progress GROUP BY user_id;`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION learner_last_active_keep() CASCADE; DROP TABLE learner_last_active;');
}
