import type { Knex } from 'knex';

/** What an email's body says where its secret goes (the sender puts the secret back; see mail/outbox.ts). */
const PLACEHOLDER = '[redacted]';
const TOKEN = `token=([A-Za-z0-9_-]+)`;

export async function up(knex: Knex): Promise<void> {
  // An email's secret (a sign-in link's token) is kept beside its body, never in it, and only until it is sent.
  // Bodies may be dropped once an email is done (sent or failed): the row stays for the back office.
  await knex.schema.alterTable('outbox_emails', (t) => {
    t.text('secret');
    t.setNullable('text_body');
  });
  // Emails queued before: the token moves out of the bodies, kept only for those not sent yet.
  await knex.raw(
    `UPDATE outbox_emails
        SET secret = CASE WHEN status <> 'sent' THEN substring(text_body from ?) END,
            text_body = regexp_replace(text_body, ?, ?, 'g'),
            html_body = regexp_replace(html_body, ?, ?, 'g')
      WHERE text_body ~ ?`,
    [TOKEN, TOKEN, `token=${PLACEHOLDER}`, TOKEN, `token=${PLACEHOLDER}`, TOKEN],
  );
  await knex.schema.alterTable('outbox_emails', (t) => {
    t.check(`status <> 'sent' OR secret IS NULL`, [], 'outbox_emails_sent_keeps_no_secret');
    t.check(`status <> 'pending' OR text_body IS NOT NULL`, [], 'outbox_emails_pending_has_body');
  });
  // The retention sweep's work list: emails done whose bodies are still kept.
  await knex.raw(
    `CREATE INDEX outbox_emails_kept_bodies ON outbox_emails (created_at) WHERE text_body IS NOT NULL AND status <> 'pending'`,
  );

  // GitHub's tokens serve the sign-in's two profile calls and nothing after: never stored.
  await knex('accounts').update({
    access_token: null,
    refresh_token: null,
    id_token: null,
    oauth_token: null,
    oauth_token_secret: null,
    expires_at: null,
    refresh_token_expires_in: null,
  });
  await knex.schema.alterTable('accounts', (t) => {
    t.check(
      `access_token IS NULL AND refresh_token IS NULL AND id_token IS NULL AND oauth_token IS NULL AND oauth_token_secret IS NULL`,
      [],
      'accounts_keep_no_tokens',
    );
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts', (t) => t.dropChecks(['accounts_keep_no_tokens']));
  await knex.raw('DROP INDEX outbox_emails_kept_bodies');
  await knex.schema.alterTable('outbox_emails', (t) =>
    t.dropChecks(['outbox_emails_sent_keeps_no_secret', 'outbox_emails_pending_has_body']),
  );
  // Unsent emails get their secret back in the body, so the code before this migration still sends working links.
  await knex.raw(
    `UPDATE outbox_emails SET text_body = replace(text_body, ?, secret), html_body = replace(html_body, ?, secret) WHERE secret IS NOT NULL`,
    [PLACEHOLDER, PLACEHOLDER],
  );
  await knex('outbox_emails').whereNull('text_body').update({ text_body: '' });
  await knex.schema.alterTable('outbox_emails', (t) => {
    t.dropColumn('secret');
    t.dropNullable('text_body');
  });
}
