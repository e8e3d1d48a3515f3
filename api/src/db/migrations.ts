import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { PROJECT_ROOT } from '../config';

export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'migrations');
/** Where `npm run build` compiles each migration, as `<name>.js`. */
export const BUILT_MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'api', 'dist', 'migrations');
export const MIGRATION_FILE = /^\d{14}_[a-z0-9_]+\.ts$/;
const BUILT_MIGRATION_FILE = /^\d{14}_[a-z0-9_]+\.js$/;

/** Running from the build (api/dist, plain JavaScript) rather than the TypeScript through tsx or vitest. */
const RUNNING_BUILT = import.meta.url.endsWith('.js');

/**
 * Loads migrations through our own import() so TypeScript files work wherever the code runs
 * (tsx, vitest, the knex CLI); helpers beside them are not migrations. The built server loads their compiled
 * copies under the same names (`<name>.ts`, as knex_migrations records them), so either runs against one database.
 */
export class MigrationDirectory implements Knex.MigrationSource<string> {
  async getMigrations(): Promise<string[]> {
    if (!RUNNING_BUILT) return (await readdir(MIGRATIONS_DIR)).filter((f) => MIGRATION_FILE.test(f)).sort();
    const compiled = (await readdir(BUILT_MIGRATIONS_DIR)).filter((f) => BUILT_MIGRATION_FILE.test(f));
    return compiled.map((f) => f.replace(/\.js$/, '.ts')).sort();
  }
  getMigrationName(name: string): string {
    return name;
  }
  async getMigration(name: string): Promise<Knex.Migration> {
    const file = RUNNING_BUILT
      ? path.join(BUILT_MIGRATIONS_DIR, name.replace(/\.ts$/, '.js'))
      : path.join(MIGRATIONS_DIR, name);
    return import(pathToFileURL(file).href);
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
