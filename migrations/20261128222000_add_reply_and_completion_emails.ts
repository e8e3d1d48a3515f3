import type { Knex } from 'knex';

/**
 * Emails that bring learners back: a reply to their comment (one per reply, decided once by the job that writes it,
 * a short while after the reply, so one deleted or hidden meanwhile sends nothing), and the course-complete email
 * (one per certificate). An email may carry a one-click unsubscribe address (RFC 8058), sent as its
 * List-Unsubscribe headers. Expand only.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outbox_emails', (t) => {
    t.text('list_unsubscribe_url');
    t.check(
      `list_unsubscribe_url IS NULL OR (list_unsubscribe_url ~ '^https{0,1}://' AND char_length(list_unsubscribe_url) <= 2000)`,
      [],
      'outbox_emails_list_unsubscribe_url_shape',
    );
  });

  await knex.schema.createTable('comment_reply_emails', (t) => {
    t.uuid('reply_id').primary().references('comments.id').onDelete('CASCADE');
    t.text('outcome').notNullable();
    t.uuid('outbox_email_id').references('outbox_emails.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`outcome IN ('sent', 'hidden', 'opted-out', 'not-open')`, [], 'comment_reply_emails_outcome_known');
    t.check(`outcome = 'sent' OR outbox_email_id IS NULL`, [], 'comment_reply_emails_email_only_when_sent');
  });

  await knex.schema.alterTable('certificates', (t) => {
    t.timestamp('completion_emailed_at', { useTz: true });
  });
  // Certificates issued before this email existed never get it late (a lesson completed again would send it).
  await knex('certificates').update({ completion_emailed_at: knex.ref('issued_at') });

  await knex.raw(`SELECT pgboss.create_queue('comment-reply-email', '{"policy":"standard"}'::json)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`SELECT pgboss.delete_queue('comment-reply-email')`);
  await knex.schema.alterTable('certificates', (t) => t.dropColumn('completion_emailed_at'));
  await knex.schema.dropTable('comment_reply_emails');
  await knex.schema.alterTable('outbox_emails', (t) => {
    t.dropChecks('outbox_emails_list_unsubscribe_url_shape');
    t.dropColumn('list_unsubscribe_url');
  });
}
