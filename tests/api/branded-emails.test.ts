import sharp from 'sharp';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../api/src/logger';
import { escapeHtml } from '../../api/src/shared/escape-html';
import { createTransport } from '../../api/src/mail/transport';
import { SchoolBody } from '../../api/src/school/schemas';
import { createServices } from '../../api/src/services';
import { testApp, testConfig, testDeps } from '../support/app';
import { as, signedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { readMessage } from '../support/mime';
import { useSmtp } from '../support/smtp-stand-in';

const PUBLIC_URL = 'https://learn.example.com';
const logger = createLogger('silent');

const SCHOOL = {
  name: 'Académie Ünïcode',
  legalName: 'Académie Ünïcode SARL',
  address: '12 rue des Écoles\n75005 Paris',
  supportEmail: 'aide@academie.example',
  accentColor: '#0F766E',
  termsHtml: '<p>Terms.</p>',
  privacyHtml: '<p>Privacy.</p>',
};

describe('emails from the school', () => {
  const database = useTestDatabase();
  const smtp = useSmtp();
  const config = testConfig({ PUBLIC_URL });
  const overrides = () => ({
    config,
    mailTransport: createTransport({ SMTP_URL: smtp().url, MAIL_FROM: 'Courses <no-reply@example.com>' }, logger),
  });

  /** Asks for a sign-in link and answers the message as the SMTP stand-in received it. */
  async function signInEmailTo(app: ReturnType<typeof testApp>, email: string) {
    expect((await request(app).post('/api/store/auth/email').send({ email })).status).toBeLessThan(300);
    await expect.poll(() => smtp().messages.some((m) => m.to.includes(email))).toBe(true);
    return readMessage(smtp().messages.find((m) => m.to.includes(email))!.raw);
  }

  it('before the school is set up: no Reply-To, and MAIL_FROM keeps its address under the default name', async () => {
    const { db } = database();
    const app = testApp(db, overrides());
    const message = await signInEmailTo(app, 'plain@example.com');
    expect(message.address('From')).toEqual({ name: 'Courses', address: 'no-reply@example.com' });
    expect(message.header('Reply-To')).toBeUndefined();
    expect(message.text.trimEnd()).toMatch(/\n-- \nCourses$/);
    expect(message.html).toMatch(/<span dir="auto"[^>]*>Courses<\/span>/); // no logo yet: the name heads the email
  });

  it("come from the school's name at MAIL_FROM's address, reply to its support address, in its layout", async () => {
    const { db } = database();
    const app = testApp(db, overrides());
    const admin = await signedIn(db, ['admin']);
    expect((await as(admin, request(app).put('/api/admin/school')).send(SCHOOL)).status).toBe(200);
    const png = await sharp({ create: { width: 640, height: 160, channels: 4, background: '#0f766e' } })
      .png()
      .toBuffer();
    const uploaded = await as(admin, request(app).put('/api/admin/school/logo')).attach('file', png, {
      filename: 'logo.png',
      contentType: 'image/png',
    });
    expect(uploaded.status).toBe(200);

    const message = await signInEmailTo(app, 'reader@example.com');
    expect(message.address('From')).toEqual({ name: 'Académie Ünïcode', address: 'no-reply@example.com' });
    expect(message.address('Reply-To')).toEqual({ name: '', address: 'aide@academie.example' });
    // The logo at an absolute address (a mail client has no page to resolve a path against), the accent on the
    // header's bar and the sign-in button.
    expect(message.html).toContain(`src="${PUBLIC_URL}${uploaded.body.logo.src}"`);
    expect(message.html).toMatch(/border-top:6px solid #0f766e/);
    expect(message.html).toMatch(
      /<a style="[^"]*background:#0f766e;[^"]*" href="https:\/\/[^"]*token=[^"]+">Sign in<\/a>/,
    );
    expect(message.html).toContain('alt="Académie Ünïcode"');
    expect(message.html).toContain('aide@academie.example');
    // The text part is kept, its link first, and it ends with the school's name and support address.
    expect(message.text).toMatch(/^Sign in by opening this link:\s+https:\/\//);
    expect(message.text.trimEnd()).toMatch(/\n-- \nAcadémie Ünïcode\naide@academie\.example$/);
  });

  it('quote or encode any name: Arabic, and ASCII with a comma and quotes', async () => {
    const { db } = database();
    const app = testApp(db, overrides());
    const admin = await signedIn(db, ['admin']);
    for (const [name, to] of [
      ['أكاديمية البرمجة', 'arabic@example.com'],
      ['Typed Academy, "Online" <Ltd>', 'ascii@example.com'],
    ] as const) {
      expect((await as(admin, request(app).put('/api/admin/school')).send({ ...SCHOOL, name })).status).toBe(200);
      const message = await signInEmailTo(app, to);
      expect(message.address('From')).toEqual({ name, address: 'no-reply@example.com' });
      expect(message.text.trimEnd().endsWith(`${name}\naide@academie.example`)).toBe(true);
      expect(message.html).toContain(`alt="${escapeHtml(name)}"`); // the logo's, uploaded above
    }
  });

  it('keep the school as it was when they were written, on a later attempt and on a copy', async () => {
    const { db } = database();
    const services = createServices(testDeps(db, overrides()));
    const admin = await signedIn(db, ['admin']);
    const context = { actor: { id: admin.user.id, email: admin.user.email }, requestId: null };
    await services.school.update(SchoolBody.parse(SCHOOL), context);
    const id = await services.outbox.enqueue(db, {
      kind: 'test',
      to: 'later@example.com',
      subject: 'Your course',
      text: 'Hello.',
      html: '<p>Hello.</p>',
    });
    const row = await db('outboxEmails').where({ id }).first();
    expect(row).toMatchObject({ fromName: 'Académie Ünïcode', replyTo: 'aide@academie.example' });

    await services.school.update(SchoolBody.parse({ ...SCHOOL, name: 'Renamed School', supportEmail: '' }), context);
    await services.outbox.flush();
    // Sent by this flush, or by an earlier test's app still waking its queue: either way, as it was written.
    await expect.poll(() => smtp().messages.some((m) => m.to.includes('later@example.com'))).toBe(true);
    const sent = readMessage(smtp().messages.find((m) => m.to.includes('later@example.com'))!.raw);
    expect(sent.address('From')?.name).toBe('Académie Ünïcode');
    expect(sent.address('Reply-To')?.address).toBe('aide@academie.example');
    expect(sent.html).not.toContain('Renamed School');

    const copy = await services.outbox.resend(id, {
      key: 'a-copy-of-the-first-email',
      actor: context.actor,
      requestId: null,
    });
    expect(copy.email).toMatchObject({ fromName: 'Académie Ünïcode', replyTo: 'aide@academie.example' });

    // Support reading the outbox sees whom the email came from and where replies went.
    const support = await signedIn(db, ['support']);
    const seen = await as(support, request(testApp(db, overrides())).get(`/api/admin/outbox-emails/${id}`));
    expect(seen.body).toMatchObject({ fromName: 'Académie Ünïcode', replyTo: 'aide@academie.example' });
  });
});
