import { spawn } from 'node:child_process';
import { PROJECT_ROOT } from '../../api/src/config';
import { freePort, waitForOk, waitForOutput, type Started } from './processes';

export interface Replica {
  name: string;
  port: number;
  url: string;
  started: Started;
  /** SIGKILL: the process and its connections vanish mid-work, as when a machine dies. */
  kill(): Promise<void>;
  /** SIGTERM, and waits for the clean exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** One API process (the server as `npm start` runs it, without npm in between), ready when /api/health/ready says so. */
export async function startReplica(name: string, env: NodeJS.ProcessEnv, port?: number): Promise<Replica> {
  const listenOn = port ?? (await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/src/server.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(listenOn) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const started: Started = { child, output: () => output, exited };
  const url = `http://127.0.0.1:${listenOn}`;
  await waitForOk(`${url}/api/health/ready`, started, 120_000);
  // The port was free when chosen, not when the child bound it: another test's server may have taken it meanwhile
  // and answered the check. Only the process that listened goes on to print its addresses; one that lost the port
  // exits instead.
  await waitForOutput(started, 'Press Ctrl-C to stop.', 60_000);
  return {
    name,
    port: listenOn,
    url,
    started,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
