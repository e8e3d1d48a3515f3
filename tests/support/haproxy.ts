import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './processes';

export interface LoadBalancer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Debian's HAProxy in front of the given loopback ports, round robin, each server checked every 500 ms on
 * /api/health/ready and taken out after two failed checks, as a production balancer would be set up.
 */
export async function startHaproxy(ports: number[]): Promise<LoadBalancer> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'lp-haproxy-'));
  const config = path.join(dir, 'haproxy.cfg');
  writeFileSync(
    config,
    [
      'global',
      '  maxconn 512',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      '  option forwardfor',
      // A replica killed mid-request: the request goes to another one where that is safe (idempotent methods).
      '  retries 2',
      '  option redispatch',
      'frontend web',
      `  bind 127.0.0.1:${port}`,
      '  default_backend replicas',
      'backend replicas',
      '  balance roundrobin',
      '  option httpchk GET /api/health/ready',
      '  default-server inter 500ms fall 2 rise 1',
      ...ports.map((p, i) => `  server replica${i + 1} 127.0.0.1:${p} check`),
      '',
    ].join('\n'),
  );
  const child = spawn('haproxy', ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  child.on('error', (error) => (output += `\n${String(error)}`));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    // Listening once it answers at all (503 until a server passes its check).
    const answered = await fetch(`${url}/api/health/live`).then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL'); // nothing stops a balancer that never answered
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`HAProxy did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
