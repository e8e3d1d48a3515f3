import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { PROJECT_ROOT } from '../../api/src/config';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Listens on a free loopback port and resolves with it; a failure to listen rejects, never goes unheard. */
export async function listenOnLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

export interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `npm start` in its own process group, as a terminal would (Ctrl-C reaches the whole group). */
export function npmStart(env: NodeJS.ProcessEnv, cwd = PROJECT_ROOT): Started {
  return startInGroup('npm', ['start', '--silent'], env, cwd);
}

/**
 * Runs what `npm start` runs (`node scripts/run.mjs server`) in its own process group, without npm: for the cases
 * about the server itself once `npm start` is proved, sparing npm's start-up.
 */
export function startServer(env: NodeJS.ProcessEnv): Started {
  return startInGroup(process.execPath, ['scripts/run.mjs', 'server'], env, PROJECT_ROOT);
}

function startInGroup(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Started {
  const child = spawn(command, args, {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

/** Polls until the URL answers 200; returns the milliseconds it took. */
export async function waitForOk(url: string, started: Started, timeoutMs = 90_000): Promise<number> {
  const begin = performance.now();
  let exitedEarly = false;
  void started.exited.then(() => (exitedEarly = true));
  while (performance.now() - begin < timeoutMs) {
    if (exitedEarly) throw new Error(`the process exited before answering:\n${started.output()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return performance.now() - begin;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no answer from ${url} within ${timeoutMs} ms:\n${started.output()}`);
}

/** Waits until the process has printed `text`; its exit first, or the time running out, fails with what it printed. */
export async function waitForOutput(started: Started, text: string, timeoutMs = 20_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let exited = false;
  void started.exited.then(() => (exited = true));
  while (!started.output().includes(text)) {
    if (exited) throw new Error(`the process exited before printing "${text}":\n${started.output()}`);
    if (performance.now() > deadline)
      throw new Error(`"${text}" not printed within ${timeoutMs} ms:\n${started.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function isListening(port: number): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
