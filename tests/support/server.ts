import { createServer } from 'node:http';
import { createApp } from '../../api/src/app';
import type { Db } from '../../api/src/db/connection';
import { testConfig, testDeps } from './app';
import { listenOnLoopback } from './processes';

/**
 * The whole product (API and both built apps) listening on a free loopback port, with PUBLIC_URL set to that
 * address so the links it makes (checkout, emails) lead back to it.
 */
export async function listen(db: Db): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = createServer();
  const baseUrl = `http://127.0.0.1:${await listenOnLoopback(server)}`;
  server.on('request', createApp(testDeps(db, { config: testConfig({ PUBLIC_URL: baseUrl }) })).callback());
  return {
    baseUrl,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
