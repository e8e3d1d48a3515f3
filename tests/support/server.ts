import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../api/src/app';
import type { Db } from '../../api/src/db/connection';
import { testConfig, testDeps } from './app';

/**
 * The whole product (API and both built apps) listening on a free loopback port, with PUBLIC_URL set to that
 * address so the links it makes (checkout, emails) lead back to it.
 */
export async function listen(db: Db): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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
