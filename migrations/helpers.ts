import type { Knex } from 'knex';

/** created_at and updated_at, both timestamptz and filled by the database. */
export function timestamps(knex: Knex, t: Knex.CreateTableBuilder): void {
  t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
}

/** A quoted SQL list for CHECK constraints over a fixed set of values. */
export function inList(values: readonly string[]): string {
  return values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', ');
}

export async function addUpdatedAtTrigger(knex: Knex, table: string): Promise<void> {
  await knex.raw(
    `CREATE TRIGGER ${table}_updated_at BEFORE UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION set_updated_at()`,
  );
}
