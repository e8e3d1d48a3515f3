import type { Knex } from 'knex';

/** A reply to a comment whose author deleted their account (the comment kept as a placeholder) emails nobody. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('comment_reply_emails', (t) => {
    t.dropChecks('comment_reply_emails_outcome_known');
    t.check(
      `outcome IN ('sent', 'hidden', 'opted-out', 'not-open', 'account-deleted')`,
      [],
      'comment_reply_emails_outcome_known',
    );
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex('comment_reply_emails').where({ outcome: 'account-deleted' }).delete();
  await knex.schema.alterTable('comment_reply_emails', (t) => {
    t.dropChecks('comment_reply_emails_outcome_known');
    t.check(`outcome IN ('sent', 'hidden', 'opted-out', 'not-open')`, [], 'comment_reply_emails_outcome_known');
  });
}
