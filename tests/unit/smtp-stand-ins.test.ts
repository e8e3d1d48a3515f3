import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../api/src/logger';
import { createTransport } from '../../api/src/mail/transport';
import { startSmtpRelay } from '../support/smtp-relay';
import { startSmtp } from '../support/smtp-stand-in';

const logger = createLogger('silent');

/** An SMTP session opened by hand up to DATA (the server waits for the message), and a way to send lines in it. */
async function sessionAtData(url: string): Promise<{ socket: Socket; send(text: string): void }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let heard = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (heard += chunk));
  const reply = async (code: string) => {
    await expect.poll(() => heard, { timeout: 5_000 }).toMatch(new RegExp(`^${code} `, 'm'));
    heard = '';
  };
  await reply('220');
  for (const [line, code] of [
    ['EHLO killed.example.com', '250'],
    ['MAIL FROM:<sender@example.com>', '250'],
    ['RCPT TO:<someone@example.com>', '250'],
    ['DATA', '354'],
  ] as const) {
    socket.write(`${line}\r\n`);
    await reply(code);
  }
  return { socket, send: (text) => socket.write(text) };
}

/** What a killed sender's connection does: the kernel answers with a reset, which the server reads as ECONNRESET. */
async function killed(socket: Socket): Promise<void> {
  const closed = new Promise((resolve) => socket.once('close', resolve));
  socket.resetAndDestroy();
  await closed;
}

const sendOne = (url: string) =>
  createTransport({ SMTP_URL: url, MAIL_FROM: 'Courses <no-reply@example.com>' }, logger).send({
    id: 'after-reset',
    to: 'next@example.com',
    subject: 'Next',
    text: 'Still here',
  });

describe('the SMTP stand-ins', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  it.each([
    ['the relay', async () => startSmtpRelay()],
    ['the stand-in', async () => startSmtp()],
  ])('%s drops a session whose sender was killed mid-message, and takes the next one', async (_name, start) => {
    const server = await start();
    closers.push(server.close);
    await killed((await sessionAtData(server.url)).socket);

    await sendOne(server.url);
    const received = 'inbox' in server ? [...server.inbox.values()] : server.messages;
    expect(received.map((message) => message.to)).toEqual([['next@example.com']]);
  });

  it('the relay drops a session whose sender was killed while it held the message unanswered', async () => {
    const relay = await startSmtpRelay();
    closers.push(relay.close);
    relay.hang(true);
    const session = await sessionAtData(relay.url);
    session.send('Message-ID: <held@example.com>\r\nSubject: held\r\n\r\nNever answered\r\n.\r\n');
    await expect.poll(() => relay.held.length).toBe(1);
    await killed(session.socket);

    relay.hang(false);
    await sendOne(relay.url);
    expect([...relay.inbox.values()].map((message) => message.to)).toEqual([['next@example.com']]);
  });
});
