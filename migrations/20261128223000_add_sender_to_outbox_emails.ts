import type { Knex } from 'knex';

/**
 * An email keeps who sent it as it was written: the sender's display name (the school's name) and the Reply-To
 * address (the school's support address), so a retry or a copy goes out as the first attempt would have, whatever
 * the school changed since. Emails written before have neither, and go out from MAIL_FROM as they always did.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outbox_emails', (t) => {
    t.text('from_name');
    t.text('reply_to');
    t.check(`from_name IS NULL OR char_length(from_name) BETWEEN 1 AND 200`, [], 'outbox_emails_from_name_length');
    t.check(
      `reply_to IS NULL OR (reply_to LIKE '%_@_%' AND char_length(reply_to) <= 320)`,
      [],
      'outbox_emails_reply_to_shape',
    );
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outbox_emails', (t) => {
    t.dropChecks(['outbox_emails_from_name_length', 'outbox_emails_reply_to_shape']);
    t.dropColumns('from_name', 'reply_to');
  });
}
