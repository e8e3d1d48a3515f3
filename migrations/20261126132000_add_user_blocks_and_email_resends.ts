import type { Knex } from 'knex';

/**
 * Support's tools about people. A blocked person (api/src/identity/staff/blocks.ts) is signed out and can neither sign in
 * nor buy, also as a guest with the same email: when, why and by whom, the reason required while blocked. An email
 * resent from the console is a copy of another (resent_from_id), made once per request key (resend_key). Expand only.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.timestamp('blocked_at', { useTz: true });
    t.text('blocked_reason');
    t.uuid('blocked_by_id').references('users.id').onDelete('SET NULL');
    t.check(
      `(blocked_at IS NULL AND blocked_reason IS NULL AND blocked_by_id IS NULL)
        OR (blocked_at IS NOT NULL AND char_length(btrim(blocked_reason)) BETWEEN 3 AND 500)`,
      [],
      'users_blocked_with_reason',
    );
  });
  await knex.schema.alterTable('outbox_emails', (t) => {
    t.uuid('resent_from_id').references('outbox_emails.id').onDelete('SET NULL');
    t.text('resend_key').unique({ indexName: 'outbox_emails_resend_key_unique' });
    t.check(`resend_key IS NULL OR char_length(resend_key) BETWEEN 8 AND 200`, [], 'outbox_emails_resend_key_length');
    t.index('resent_from_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outbox_emails', (t) => {
    t.dropColumn('resend_key');
    t.dropColumn('resent_from_id');
  });
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('blocked_by_id');
    t.dropColumn('blocked_reason');
    t.dropColumn('blocked_at');
  });
}
