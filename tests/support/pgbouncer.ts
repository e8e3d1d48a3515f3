import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './processes';

export interface PgBouncer {
  /** `url` (a database on the test server) as reached through PgBouncer. */
  through(url: string): string;
  stop(): Promise<void>;
}

/**
 * Debian's PgBouncer in transaction mode in front of the test server, as managed PostgreSQL offerings run it:
 * every transaction may land on another server connection. `serverConnections` is its pool per database.
 */
export async function startPgBouncer(serverUrl: string, { serverConnections = 2 } = {}): Promise<PgBouncer> {
  const server = new URL(serverUrl);
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'lp-pgbouncer-'));
  chmodSync(dir, 0o755); // run as the postgres user when we are root: it must read its files
  const target = [
    `host=${server.hostname}`,
    `port=${server.port || 5432}`,
    `user=${decodeURIComponent(server.username || 'postgres')}`,
    server.password ? `password=${decodeURIComponent(server.password)}` : '',
  ].join(' ');
  writeFileSync(path.join(dir, 'userlist.txt'), `"${decodeURIComponent(server.username || 'postgres')}" ""\n`);
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = ${target}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${serverConnections}`,
      'max_client_conn = 200',
      'ignore_startup_parameters = extra_float_digits',
      '',
    ].join('\n'),
  );
  const args = [path.join(dir, 'pgbouncer.ini')];
  // PgBouncer refuses to run as root; -u drops to the postgres user.
  if (userInfo().uid === 0) args.unshift('-u', 'postgres');
  const child: ChildProcess = spawn('pgbouncer', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  child.on('error', (error) => (output += `\n${String(error)}`));

  const through = (url: string) => {
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(port);
    proxied.password = '';
    return proxied.toString();
  };
  // Ready when it answers a query (its admin console would need another user).
  const deadline = Date.now() + 20_000;
  for (;;) {
    const client = new pg.Client({ connectionString: through(serverUrl) });
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`PgBouncer did not start: ${String(error)}\n${output}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    through,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
