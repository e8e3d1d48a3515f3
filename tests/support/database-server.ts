import path from 'node:path';
import pg from 'pg';
import { PROJECT_ROOT } from '../../api/src/config';

/** The server tests create their databases on: TEST_DATABASE_URL, else DATABASE_URL, else an embedded one. */
export function configuredServerUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;
}

export const EMBEDDED_TEST_DIR = path.join(PROJECT_ROOT, '.data', 'test-postgres');
export const EMBEDDED_TEST_PORT = Number(process.env.TEST_EMBEDDED_PG_PORT ?? 54339);

/** The same server, another database. */
export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export const TEST_DATABASE_PREFIX = 'lp_test_';
