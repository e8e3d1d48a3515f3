import type { Knex } from 'knex';
import { addUpdatedAtTrigger, timestamps } from './helpers';

export async function up(knex: Knex): Promise<void> {
  // Where to send the person after the emailed link is used (a path on this site).
  await knex.schema.alterTable('verification_tokens', (t) => {
    t.text('redirect_to');
  });

  // Sessions: the CSRF token that browser requests echo in a header; when it was last seen.
  await knex.schema.alterTable('sessions', (t) => {
    t.text('csrf_token')
      .notNullable()
      .defaultTo(knex.raw(`replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`));
    t.timestamp('last_seen_at', { useTz: true });
    t.text('user_agent');
  });

  // Device login (RFC 8628): who asked, polling pace, the decision, and that the token went out once.
  await knex.schema.alterTable('device_verifications', (t) => {
    t.text('client_id').notNullable().defaultTo('');
    t.integer('interval_seconds').notNullable().defaultTo(5);
    t.timestamp('last_polled_at', { useTz: true });
    t.timestamp('denied_at', { useTz: true });
    t.timestamp('token_issued_at', { useTz: true });
    t.check(`verified_at IS NULL OR denied_at IS NULL`, [], 'device_verifications_one_decision');
  });

  // Device tokens get a public handle (the primary key is the token's hash) for listing and revoking.
  await knex.schema.alterTable('device_access_tokens', (t) => {
    t.uuid('id').notNullable().unique().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('client_id');
    t.timestamp('last_used_at', { useTz: true });
  });

  // Per-resource preferences point at their resource; one row per user, type and resource.
  await knex.schema.alterTable('user_prefs', (t) => {
    t.uuid('resource_id').references('content_resources.id').onDelete('CASCADE');
    t.check(`(type = 'local') = (resource_id IS NOT NULL)`, [], 'user_prefs_local_has_resource');
  });
  await knex.raw(
    'CREATE UNIQUE INDEX user_prefs_one_per_scope ON user_prefs (user_id, type, resource_id) NULLS NOT DISTINCT',
  );

  // OAuth sign-in in progress: state and PKCE verifier, single use, short-lived.
  await knex.schema.createTable('oauth_states', (t) => {
    t.text('state_hash').primary();
    t.text('provider').notNullable();
    t.text('code_verifier').notNullable();
    t.text('redirect_to');
    t.timestamp('expires', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // Fixed-window counters shared by every server process.
  await knex.schema.createTable('rate_limit_hits', (t) => {
    t.text('bucket').notNullable();
    t.timestamp('window_start', { useTz: true }).notNullable();
    t.integer('hits').notNullable().defaultTo(0);
    t.primary(['bucket', 'window_start']);
    t.index('window_start');
  });

  // Every email the product sends: written in the sender's transaction, delivered after commit.
  await knex.schema.createTable('outbox_emails', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('to_address').notNullable();
    t.text('subject').notNullable();
    t.text('text_body').notNullable();
    t.text('html_body');
    t.text('kind').notNullable(); // sign-in, receipt, ...
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error');
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sent_at', { useTz: true });
    t.text('transport'); // 'smtp' or 'log'
    timestamps(knex, t);
    t.check(`status IN ('pending', 'sent', 'failed')`, [], 'outbox_emails_status_known');
    t.index(['status', 'next_attempt_at']);
    t.index('created_at');
    t.index('to_address');
  });
  await addUpdatedAtTrigger(knex, 'outbox_emails');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('outbox_emails');
  await knex.schema.dropTable('rate_limit_hits');
  await knex.schema.dropTable('oauth_states');
  await knex.raw('DROP INDEX user_prefs_one_per_scope');
  await knex.schema.alterTable('user_prefs', (t) => {
    t.dropChecks(['user_prefs_local_has_resource']);
    t.dropColumn('resource_id');
  });
  await knex.schema.alterTable('device_access_tokens', (t) => t.dropColumns('id', 'client_id', 'last_used_at'));
  await knex.schema.alterTable('device_verifications', (t) => {
    t.dropChecks(['device_verifications_one_decision']);
    t.dropColumns('client_id', 'interval_seconds', 'last_polled_at', 'denied_at', 'token_issued_at');
  });
  await knex.schema.alterTable('sessions', (t) => t.dropColumns('csrf_token', 'last_seen_at', 'user_agent'));
  await knex.schema.alterTable('verification_tokens', (t) => t.dropColumn('redirect_to'));
}
