import type { Knex } from 'knex';
import { FAIL_FAST_ON_LOCKS } from './rollup-sql';

/**
 * A learner's last activity kept by a row trigger rather than statement triggers: a progress write (one row, an
 * insert or an update of the learner's row for the lesson) then runs one small upsert, without the transition
 * tables and the second statement trigger an upsert fires, so marking a lesson stays as fast as it was. Same rule as
 * before (20261130010100): a write moving progress forward raises the time; a delete, or an update moving a row back
 * or to someone else, takes the learner's latest time again from their rows, or forgets them when none is left,
 * under the lock of the learner's row so that it never moves back past a write committed meanwhile.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(FAIL_FAST_ON_LOCKS);
  await knex.raw(`
    DROP TRIGGER learner_last_active_inserted ON lesson_progress;
    DROP TRIGGER learner_last_active_updated ON lesson_progress;
    DROP TRIGGER learner_last_active_deleted ON lesson_progress;

    -- The learner's row is locked before their rows are read: a newer write committing meanwhile is then seen (each
    -- statement reads afresh), never overwritten by an older time. A placeholder row gives a first write one to lock.
    CREATE FUNCTION learner_last_active_retake(learner uuid) RETURNS void LANGUAGE plpgsql AS $$
    DECLARE latest timestamptz;
    BEGIN
      INSERT INTO learner_last_active (user_id, last_active_at) VALUES (learner, '-infinity')
      ON CONFLICT (user_id) DO NOTHING;
      PERFORM 1 FROM learner_last_active WHERE user_id = learner FOR UPDATE;
      latest := (SELECT max(updated_at) FROM lesson_progress WHERE user_id = learner);
      IF latest IS NULL THEN DELETE FROM learner_last_active WHERE user_id = learner;
      ELSE UPDATE learner_last_active SET last_active_at = latest WHERE user_id = learner;
      END IF;
    END $$;

    CREATE FUNCTION learner_last_active_keep_row() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'DELETE' THEN
        INSERT INTO learner_last_active AS a (user_id, last_active_at) VALUES (NEW.user_id, NEW.updated_at)
        ON CONFLICT (user_id) DO UPDATE SET last_active_at = excluded.last_active_at
        WHERE excluded.last_active_at > a.last_active_at;
      END IF;
      IF TG_OP = 'DELETE' OR NEW.user_id <> OLD.user_id OR NEW.updated_at < OLD.updated_at THEN
        PERFORM learner_last_active_retake(OLD.user_id);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER learner_last_active_kept AFTER INSERT OR UPDATE OR DELETE ON lesson_progress
      FOR EACH ROW EXECUTE FUNCTION learner_last_active_keep_row();`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER learner_last_active_kept ON lesson_progress;
    DROP FUNCTION learner_last_active_keep_row();
    DROP FUNCTION learner_last_active_retake(uuid);
    CREATE TRIGGER learner_last_active_inserted AFTER INSERT ON lesson_progress REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION learner_last_active_keep();
    CREATE TRIGGER learner_last_active_updated AFTER UPDATE ON lesson_progress
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION learner_last_active_keep();
    CREATE TRIGGER learner_last_active_deleted AFTER DELETE ON lesson_progress REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION learner_last_active_keep();`);
}
