import type { Knex } from 'knex';

/**
 * Scheduled release's emails (docs/domain.md §11): one row per learner, course and released module or lesson, written
 * with the email in one transaction, so each learner hears of each release once, whichever replica's sweep gets
 * there first (the key decides a race).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE release_emails (
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      course_id uuid NOT NULL REFERENCES content_resources(id),
      content_id uuid NOT NULL REFERENCES content_resources(id),
      opened_at timestamptz NOT NULL,
      email_id uuid REFERENCES outbox_emails(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, course_id, content_id)
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE release_emails');
}
