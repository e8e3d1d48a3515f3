import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';
import { listenOnLoopback } from './processes';

/**
 * Starts an SMTP server on a free loopback port and returns the port. A sender that goes away mid-message (a killed
 * replica, a client that timed out) resets its connection, which smtp-server reports as an 'error' event: as a real
 * server does, the stand-in drops that session and goes on (unheard, the event would end the test process).
 */
export function listenSmtp(server: SMTPServer): Promise<number> {
  server.on('error', () => undefined);
  return listenOnLoopback(server.server);
}

/** A real SMTP server on loopback that keeps what it receives. */
export async function startSmtp() {
  const messages: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk) => (raw += chunk));
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  const port = await listenSmtp(server);
  return {
    messages,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An SMTP server for a test file: started before its tests, closed after them. */
export function useSmtp(): () => Awaited<ReturnType<typeof startSmtp>> {
  let smtp: Awaited<ReturnType<typeof startSmtp>> | undefined;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(() => smtp?.close());
  return () => smtp!;
}

/** A received message's text with quoted-printable soft breaks and `=3D` undone (enough to read its links). */
export function decodedMessage(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}
