import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { PROJECT_ROOT } from '../config';

export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'migrations');
const MIGRATION_FILE = /^\d{14}_[a-z0-9_]+\.ts$/;

/**
 * Loads migrations through our own import() so TypeScript files work wherever the code runs
 * (tsx, vitest, the knex CLI); helpers beside them are not migrations.
 */
export class MigrationDirectory implements Knex.MigrationSource<string> {
  constructor(private readonly dir = MIGRATIONS_DIR) {}
  async getMigrations(): Promise<string[]> {
    return (await readdir(this.dir)).filter((f) => MIGRATION_FILE.test(f)).sort();
  }
  getMigrationName(name: string): string {
    return name;
  }
  async getMigration(name: string): Promise<Knex.Migration> {
    return import(pathToFileURL(path.join(this.dir, name)).href);
  }
}

export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource: new MigrationDirectory() })) as [number, string[]];
  return applied;
}

/** Migrations this code has that the database has not run yet (empty: the schema is current). */
export async function pendingMigrations(db: Knex): Promise<string[]> {
  const [, pending] = (await db.migrate.list({ migrationSource: new MigrationDirectory() })) as [unknown[], string[]];
  return pending.map((name) => (typeof name === 'string' ? name : (name as { file: string }).file));
}
