import type { Knex } from 'knex';
import { addUpdatedAtTrigger, inList, timestamps } from './helpers';

// Spelled out here, not imported: a landed migration must not change meaning when the code does.
const REMINDER_KINDS = ['day', 'hour'];

/**
 * Live workshops: the sessions a live product runs (edited in the console), the reminders sent for them (one row per
 * session, holder and kind, so concurrent sweeps send each once), the queue the reminder sweep runs on, and files
 * attached to outbox emails (a receipt's calendar invite).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('workshop_sessions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('product_id').notNullable().references('products.id').onDelete('CASCADE');
    t.text('title').notNullable();
    t.timestamp('starts_at', { useTz: true }).notNullable();
    t.timestamp('ends_at', { useTz: true }).notNullable();
    // An IANA name (Europe/Berlin): checked by the API, which knows the zone database; here only its shape.
    t.text('time_zone').notNullable();
    t.text('join_url');
    // The calendar's SEQUENCE: every change counts one up, so an invite sent later replaces an earlier one.
    t.integer('sequence').notNullable().defaultTo(0);
    timestamps(knex, t);
    t.check('ends_at > starts_at', [], 'workshop_sessions_ends_after_start');
    t.check(`length(title) BETWEEN 1 AND 200`, [], 'workshop_sessions_title_length');
    t.check(`time_zone ~ '^[A-Za-z0-9_+/-]{1,64}$'`, [], 'workshop_sessions_time_zone_shape');
    t.check(`join_url IS NULL OR join_url ~ '^https://[^\\s]+$'`, [], 'workshop_sessions_join_url_https');
    t.index(['product_id', 'starts_at']);
    t.index('starts_at');
  });
  await addUpdatedAtTrigger(knex, 'workshop_sessions');
  await knex.raw(`
    CREATE FUNCTION workshop_sessions_next_sequence() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN NEW.sequence = OLD.sequence + 1; RETURN NEW; END $$;
  `);
  await knex.raw(
    `CREATE TRIGGER workshop_sessions_sequence BEFORE UPDATE ON workshop_sessions FOR EACH ROW EXECUTE FUNCTION workshop_sessions_next_sequence()`,
  );

  await knex.schema.createTable('workshop_reminders', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('session_id').notNullable().references('workshop_sessions.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.uuid('outbox_email_id').references('outbox_emails.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`kind IN (${inList(REMINDER_KINDS)})`, [], 'workshop_reminders_kind_known');
    // The idempotency key: a reminder is written once per session, holder and kind, whoever runs the sweep.
    t.unique(['session_id', 'user_id', 'kind'], { indexName: 'workshop_reminders_once' });
    t.index('user_id');
  });

  // Files sent with an email ([{ filename, contentType, content }], text content), e.g. a receipt's .ics invite.
  await knex.schema.alterTable('outbox_emails', (t) => {
    t.jsonb('attachments');
  });

  await knex.raw(`SELECT pgboss.create_queue('workshop-reminders', '{"policy":"standard"}'::json)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`SELECT pgboss.delete_queue('workshop-reminders')`);
  await knex.schema.alterTable('outbox_emails', (t) => t.dropColumn('attachments'));
  await knex.schema.dropTable('workshop_reminders');
  await knex.schema.dropTable('workshop_sessions');
  await knex.raw('DROP FUNCTION workshop_sessions_next_sequence()');
}
