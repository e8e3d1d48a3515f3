import type { Knex } from 'knex';

/**
 * Query options that prepare a statement by name: PostgreSQL parses and plans it once per connection. Not through
 * PgBouncer in transaction mode (DB_PGBOUNCER=true): there each transaction may land on another server connection,
 * where the name is unknown, or already taken by another client ("prepared statement ... already exists").
 */
export function prepared(db: Knex, name: string): { name?: string } {
  return db.userParams?.namedStatements === false ? {} : { name };
}
