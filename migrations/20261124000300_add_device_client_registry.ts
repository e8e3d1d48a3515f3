import type { Knex } from 'knex';

/** The apps that may ask for a device login, registered as the device flow's clients (RFC 8628 §5.4). */
const COURSE_CLI = { client_id: 'course-cli', name: 'Course CLI' };

export async function up(knex: Knex): Promise<void> {
  // Known device clients: /activate shows a registered name, never what the device chose to call itself; an
  // unknown client_id is refused (invalid_client) before a code is issued.
  await knex.schema.createTable('device_clients', (t) => {
    t.text('client_id').primary();
    t.text('name').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`client_id ~ '^[A-Za-z0-9._:-]{1,100}$'`, [], 'device_clients_client_id_shape');
    t.check(`char_length(name) BETWEEN 1 AND 80`, [], 'device_clients_name_length');
  });
  await knex('device_clients').insert(COURSE_CLI);

  // Codes and tokens keep the client_id they were issued to, with no foreign key: a client taken off the list gets
  // no new codes, while the people already signed in on it keep their devices until they revoke them.

  // Device tokens end after DEVICE_TOKEN_IDLE_DAYS unused (last use, else approval): pruning finds them by that.
  await knex.raw(
    'CREATE INDEX device_access_tokens_last_active ON device_access_tokens ((coalesce(last_used_at, created_at)))',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX device_access_tokens_last_active');
  await knex.schema.dropTable('device_clients');
}
