import type { Knex } from 'knex';
import { addUpdatedAtTrigger, inList, timestamps } from './helpers';

// Spelled out here, not imported: a landed migration must not change meaning when the code does.
const ROLES = ['admin', 'support', 'finance', 'contributor', 'learner'];

export async function up(knex: Knex): Promise<void> {
  // One trigger function keeps updated_at honest for every write, not only the ones that go through models.
  await knex.raw(`
    CREATE FUNCTION set_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN NEW.updated_at = now(); RETURN NEW; END $$;
  `);

  await knex.schema.createTable('users', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name');
    t.text('email').notNullable();
    t.timestamp('email_verified', { useTz: true });
    t.text('image');
    t.specificType('roles', 'text[]').notNullable().defaultTo(knex.raw(`'{learner}'::text[]`));
    t.jsonb('fields').notNullable().defaultTo('{}');
    timestamps(knex, t);
    t.check(`roles <@ ARRAY[${inList(ROLES)}]::text[]`, [], 'users_roles_known');
    t.check(`email ~ '^[^@\\s]+@[^@\\s]+$'`, [], 'users_email_shape');
  });
  await knex.raw('CREATE UNIQUE INDEX users_email_unique ON users (lower(email))');

  await knex.schema.createTable('accounts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('type').notNullable();
    t.text('provider').notNullable();
    t.text('provider_account_id').notNullable();
    t.text('refresh_token');
    t.text('access_token');
    t.bigInteger('expires_at');
    t.text('token_type');
    t.text('scope');
    t.text('id_token');
    t.text('session_state');
    t.text('oauth_token_secret');
    t.text('oauth_token');
    t.integer('refresh_token_expires_in');
    t.unique(['provider', 'provider_account_id']);
    t.index('user_id');
    t.check(`type IN ('oauth', 'oidc', 'email')`, [], 'accounts_type_known');
  });

  await knex.schema.createTable('sessions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('session_token').notNullable().unique(); // a hash of the cookie value, never the value
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('expires', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index('user_id');
  });

  await knex.schema.createTable('verification_tokens', (t) => {
    t.text('token').primary(); // a hash of the emailed token
    t.text('identifier').notNullable();
    t.timestamp('expires', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['identifier', 'created_at']);
  });

  await knex.schema.createTable('device_verifications', (t) => {
    t.text('device_code').primary(); // a hash of the device code
    t.text('user_code').notNullable().unique();
    t.timestamp('expires', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('verified_at', { useTz: true });
    t.uuid('verified_by_user_id').references('users.id').onDelete('CASCADE');
    t.check(`user_code ~ '^[BCDFGHJKLMNPQRSTVWXZ]{8}$'`, [], 'device_verifications_user_code_shape');
  });

  await knex.schema.createTable('device_access_tokens', (t) => {
    t.text('token').primary(); // a hash of the bearer token
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.index('user_id');
  });

  await knex.schema.createTable('user_prefs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('type').notNullable().defaultTo('global');
    t.jsonb('fields').notNullable().defaultTo('{}');
    timestamps(knex, t);
    t.index('user_id');
    t.check(`type IN ('global', 'local')`, [], 'user_prefs_type_known');
  });

  for (const table of ['users', 'user_prefs']) await addUpdatedAtTrigger(knex, table);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'user_prefs',
    'device_access_tokens',
    'device_verifications',
    'verification_tokens',
    'sessions',
    'accounts',
    'users',
  ]) {
    await knex.schema.dropTable(table);
  }
  await knex.raw('DROP FUNCTION set_updated_at()');
}
