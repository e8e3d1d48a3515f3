import { SMTPServer } from 'smtp-server';
import { listenSmtp } from './smtp-stand-in';

export interface RelayedMessage {
  from: string;
  to: string[];
  messageId: string;
}

/**
 * A real SMTP server on loopback that behaves as a relay does: it keeps every message it answered 250 for once
 * per Message-ID (a copy of one it already has is dropped and counted), and can be told to hang (take the message
 * and never answer), or to run a step between taking a message and answering (a sender killed in that moment).
 */
export async function startSmtpRelay() {
  const attempts: RelayedMessage[] = [];
  const inbox = new Map<string, RelayedMessage>();
  let duplicatesDropped = 0;
  let hang = false;
  const held: RelayedMessage[] = [];
  let beforeAnswer: ((message: RelayedMessage) => Promise<void>) | null = null;

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk) => (raw += chunk));
      stream.on('end', async () => {
        const message: RelayedMessage = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          messageId: /^Message-ID:\s*(<[^>]+>)/im.exec(raw)?.[1] ?? '',
        };
        attempts.push(message);
        if (hang) {
          held.push(message); // never answered: the sender times out, and the relay keeps nothing
          return;
        }
        if (inbox.has(message.messageId)) duplicatesDropped++;
        else inbox.set(message.messageId, message);
        const step = beforeAnswer;
        if (step) await step(message);
        callback();
      });
    },
  });
  const port = await listenSmtp(server);
  return {
    url: `smtp://127.0.0.1:${port}`,
    /** Every message received in full, answered or not. */
    attempts,
    /** What was delivered: one per Message-ID. */
    inbox,
    held,
    duplicatesDropped: () => duplicatesDropped,
    hang(on: boolean) {
      hang = on;
    },
    /** Runs between keeping a message and answering 250 for it (null: answer at once). */
    beforeAnswering(step: ((message: RelayedMessage) => Promise<void>) | null) {
      beforeAnswer = step;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpRelay = Awaited<ReturnType<typeof startSmtpRelay>>;
