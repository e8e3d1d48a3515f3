import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import type { Product } from '../../api/src/catalog/models';
import { OutboxEmail } from '../support/models';
import { createLogger } from '../../api/src/logger';
import { createTransport } from '../../api/src/mail/transport';
import { createServices, type Services } from '../../api/src/services';
import { createProduct, createPurchase, createUser, createWorkshopSession } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { boughtWithTestProvider } from '../support/checkout';
import { manualClock } from '../support/clock';
import { useTestDatabase } from '../support/db';
import { parseIcs } from '../support/ics';
import { useSmtp } from '../support/smtp-stand-in';

const HOUR = 60 * 60 * 1000;
const JOIN = 'https://meet.example.com/secret-room';

const utc = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

describe('live workshops (issue 17, point 5)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const smtp = useSmtp();
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let admin: SignedIn;
  let workshop: Product;

  beforeAll(async () => {
    const deps = testDeps(db());
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    admin = await signedIn(db(), ['support']);
    workshop = await createProduct(db(), { name: 'Workshop Under Test', productType: 'live', unitAmount: 39_900 });
  });

  const sessionsApi = (method: 'post' | 'put' | 'delete', path: string, body?: object) =>
    as(admin, request(app)[method](`/api/admin/workshop-sessions${path}`)).send(body);

  describe('sessions in the console', () => {
    // One instant for every case: "an end equal to the start" must be equal however slowly the cases are built.
    const now = Date.now();
    const future = (hours: number) => new Date(now + hours * HOUR).toISOString();

    it('creates, edits and deletes a session, with the time zone made canonical', async () => {
      const created = await sessionsApi('post', '', {
        productId: workshop.id,
        title: 'Day 1',
        startsAt: future(48),
        endsAt: future(50),
        timeZone: 'europe/berlin',
        joinUrl: 'https://meet.example.com/day-1',
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ title: 'Day 1', timeZone: 'Europe/Berlin', productId: workshop.id });
      const edited = await sessionsApi('put', `/${created.body.id}`, { title: 'Day one', joinUrl: '' });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ title: 'Day one', joinUrl: null });
      expect((await sessionsApi('delete', `/${created.body.id}`)).status).toBe(200);
      expect(await db()('workshopSessions').where({ id: created.body.id }).first()).toBeUndefined();
    });

    it.each([
      ['an unknown time zone', { timeZone: 'Mars/Olympus' }, 'timeZone'],
      ['an offset instead of a zone', { timeZone: '+02:00' }, 'timeZone'],
      ['a join link over http', { joinUrl: 'http://meet.example.com/x' }, 'joinUrl'],
      ['a join link that is no link', { joinUrl: 'javascript:alert(1)' }, 'joinUrl'],
      ['an end before the start', { startsAt: future(50), endsAt: future(48) }, 'endsAt'],
      ['an end equal to the start', { startsAt: future(50), endsAt: future(50) }, 'endsAt'],
    ])('refuses %s with the field named', async (_what, change, field) => {
      const response = await sessionsApi('post', '', {
        productId: workshop.id,
        title: 'Bad',
        startsAt: future(48),
        endsAt: future(50),
        timeZone: 'UTC',
        ...change,
      });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation-failed');
      expect(Object.keys(response.body.errors)).toEqual([field]);
    });

    it('refuses a session for a self-paced product, and an edit that would end it before its start', async () => {
      const course = await createProduct(db(), { name: 'Self-paced Course' });
      const refused = await sessionsApi('post', '', {
        productId: course.id,
        title: 'No',
        startsAt: future(48),
        endsAt: future(50),
        timeZone: 'UTC',
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual({ productId: 'must be a live workshop' });

      const session = await createWorkshopSession(db(), { product: workshop });
      const backwards = await sessionsApi('put', `/${session.id}`, {
        endsAt: new Date(session.startsAt.getTime() - HOUR).toISOString(),
      });
      expect(backwards.status).toBe(400);
      expect(backwards.body.errors).toEqual({ endsAt: 'must be after the start' });
      await db()('workshopSessions').where({ id: session.id }).delete();
    });

    it('is written by support only (finance reads)', async () => {
      const finance = await signedIn(db(), ['finance']);
      expect((await as(finance, request(app).get('/api/admin/workshop-sessions')).send()).status).toBe(200);
      const body = { productId: workshop.id, title: 'X', startsAt: future(2), endsAt: future(3), timeZone: 'UTC' };
      expect((await as(finance, request(app).post('/api/admin/workshop-sessions')).send(body)).status).toBe(403);
    });
  });

  describe('schedule, join links and invites', () => {
    let holder: SignedIn;
    let stranger: SignedIn;
    let teamBuyer: SignedIn;
    let refunded: SignedIn;
    let day1: Awaited<ReturnType<typeof createWorkshopSession>>;

    beforeAll(async () => {
      day1 = await createWorkshopSession(db(), {
        product: workshop,
        title: 'Day 1, types',
        startsAt: new Date(Date.now() + 72 * HOUR),
        timeZone: 'America/New_York',
        joinUrl: JOIN,
      });
      await createWorkshopSession(db(), {
        product: workshop,
        title: 'Day 2',
        startsAt: new Date(Date.now() + 96 * HOUR),
        joinUrl: null,
      });
      // Over already: on no schedule.
      await createWorkshopSession(db(), {
        product: workshop,
        title: 'Yesterday',
        startsAt: new Date(Date.now() - 26 * HOUR),
      });
      holder = await signedIn(db());
      stranger = await signedIn(db());
      teamBuyer = await signedIn(db());
      refunded = await signedIn(db());
      await createPurchase(db(), { user: holder.user, product: workshop });
      await createPurchase(db(), { user: refunded.user, product: workshop, status: 'Refunded' });
      // A team purchase opens nothing until its buyer takes a seat (docs/domain.md §7).
      await boughtWithTestProvider(services, db(), { buyer: teamBuyer.user, productId: workshop.id, quantity: 3 });
    });

    it('shows everyone the sessions not over yet, soonest first, and never a join link', async () => {
      const schedule = await request(app).get(`/api/store/products/${workshop.id}/schedule`);
      expect(schedule.status).toBe(200);
      expect(schedule.body.data.map((s: { title: string }) => s.title)).toEqual(['Day 1, types', 'Day 2']);
      expect(schedule.body.data[0]).toEqual({
        id: day1.id,
        title: 'Day 1, types',
        startsAt: day1.startsAt.toISOString(),
        endsAt: day1.endsAt.toISOString(),
        timeZone: 'America/New_York',
      });
      expect(JSON.stringify(schedule.body)).not.toContain('meet.example.com');
      const products = await request(app).get('/api/store/products');
      expect(products.text).not.toContain('meet.example.com');
    });

    it('answers 404 for the schedule of an archived or unknown product and 400 for a malformed id', async () => {
      const archived = await createProduct(db(), {
        name: 'Archived Workshop',
        productType: 'live',
        status: 'archived',
      });
      for (const id of [archived.id, '00000000-0000-4000-8000-000000000000']) {
        const response = await request(app).get(`/api/store/products/${id}/schedule`);
        expect(response.status).toBe(404);
        expect(response.body.code).toBe('product-not-found');
      }
      expect((await request(app).get('/api/store/products/nope/schedule')).status).toBe(400);
    });

    it('gives the join link to the holder only: not to a stranger, a refunded buyer or a team buyer without a seat', async () => {
      const mine = await as(holder, request(app).get('/api/store/workshops')).send();
      expect(mine.status).toBe(200);
      expect(mine.headers['cache-control']).toBe('private, no-store');
      expect(mine.body.data).toHaveLength(1);
      expect(mine.body.data[0].product).toEqual({ id: workshop.id, name: workshop.name, slug: workshop.slug });
      expect(mine.body.data[0].nextSession).toMatchObject({
        id: day1.id,
        joinUrl: JOIN,
        inviteUrl: `/api/store/workshops/${day1.id}.ics`,
      });
      expect(mine.body.data[0].sessions.map((s: { joinUrl: string | null }) => s.joinUrl)).toEqual([JOIN, null]);

      for (const other of [stranger, refunded, teamBuyer]) {
        const theirs = await as(other, request(app).get('/api/store/workshops')).send();
        expect(theirs.status).toBe(200);
        expect(theirs.body.data).toEqual([]);
      }
      expect((await request(app).get('/api/store/workshops')).status).toBe(401);
    });

    it('serves the holder an .ics invite with a stable UID, UTC times, summary and the join link', async () => {
      const response = await as(holder, request(app).get(`/api/store/workshops/${day1.id}.ics`)).send();
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="${day1.id}.ics"`);
      const { calendar, events } = parseIcs(response.text);
      expect(calendar).toMatchObject({ VERSION: '2.0', PRODID: expect.any(String) });
      expect(events).toHaveLength(1);
      const [event] = events;
      expect(event).toMatchObject({
        UID: `workshop-session-${day1.id}@localhost`,
        DTSTART: utc(day1.startsAt),
        DTEND: utc(day1.endsAt),
        SUMMARY: `${workshop.name}: Day 1\\, types`,
        URL: JOIN,
      });
      expect(event!.DTSTAMP).toMatch(/^\d{8}T\d{6}Z$/);

      // Moved by an hour: the same UID (calendars replace the event) with a higher SEQUENCE.
      await sessionsApi('put', `/${day1.id}`, {
        startsAt: new Date(day1.startsAt.getTime() + HOUR).toISOString(),
        endsAt: new Date(day1.endsAt.getTime() + HOUR).toISOString(),
      }).expect(200);
      const moved = parseIcs((await as(holder, request(app).get(`/api/store/workshops/${day1.id}.ics`)).send()).text)
        .events[0]!;
      expect(moved.UID).toBe(event!.UID);
      expect(moved.DTSTART).toBe(utc(new Date(day1.startsAt.getTime() + HOUR)));
      expect([event!.SEQUENCE, moved.SEQUENCE]).toEqual(['0', '1']);
    });

    it('refuses the invite to anyone else (403), an unknown session (404) and a malformed name (400)', async () => {
      for (const other of [stranger, refunded, teamBuyer]) {
        const refused = await as(other, request(app).get(`/api/store/workshops/${day1.id}.ics`)).send();
        expect(refused.status).toBe(403);
        expect(refused.body.code).toBe('workshop-not-held');
        expect(refused.text).not.toContain('meet.example.com');
      }
      expect((await request(app).get(`/api/store/workshops/${day1.id}.ics`)).status).toBe(401);
      const unknown = await as(
        holder,
        request(app).get('/api/store/workshops/00000000-0000-4000-8000-000000000000.ics'),
      );
      expect(unknown.status).toBe(404);
      for (const file of [day1.id, `${day1.id}.pdf`, 'x.ics']) {
        const bad = await as(holder, request(app).get(`/api/store/workshops/${file}`)).send();
        expect(bad.status).toBe(400);
        expect(bad.body.code).toBe('validation-failed');
      }
    });
  });

  describe('the receipt', () => {
    it('carries the calendar invite as an attachment over SMTP', async () => {
      const logger = createLogger('silent');
      const transport = createTransport({ SMTP_URL: smtp().url, MAIL_FROM: 'Courses <no-reply@example.com>' }, logger);
      const deps = testDeps(db(), { mailTransport: transport });
      const smtpServices = createServices(deps);
      const product = await createProduct(db(), { name: 'Receipt Workshop', productType: 'live', unitAmount: 20_000 });
      const session = await createWorkshopSession(db(), { product, title: 'Only day', joinUrl: JOIN });
      const buyer = await createUser(db(), { email: `ics-${Date.now()}@example.com` });
      await boughtWithTestProvider(smtpServices, db(), { buyer, productId: product.id });
      await smtpServices.outbox.flush();
      const row = await OutboxEmail.query(db()).findOne({ toAddress: buyer.email, kind: 'receipt' });
      expect(row).toMatchObject({ status: 'sent', transport: 'smtp' });
      expect(row!.attachments).toEqual([
        { filename: 'workshop.ics', contentType: 'text/calendar; charset=utf-8', content: expect.any(String) },
      ]);

      const raw = smtp().messages.find((m) => m.to.includes(buyer.email))!.raw;
      const part =
        /Content-Type: text\/calendar[^\r\n]*(?:\r\n[ \t][^\r\n]*)*\r\n((?:[\w-]+:[^\r\n]*(?:\r\n[ \t][^\r\n]*)*\r\n)*)\r\n([\s\S]*?)\r\n--/.exec(
          raw,
        );
      expect(part, 'a text/calendar part').not.toBeNull();
      const headers = part![1]!;
      expect(headers).toMatch(/Content-Disposition: attachment;\s+filename=workshop\.ics/);
      const encoding = /Content-Transfer-Encoding: ([\w-]+)/.exec(headers)?.[1];
      const body =
        encoding === 'base64'
          ? Buffer.from(part![2]!.replace(/\s+/g, ''), 'base64').toString('utf8')
          : encoding === 'quoted-printable'
            ? decodeURIComponent(
                `${part![2]!}\r\n`
                  .replace(/=\r\n/g, '')
                  .replace(/%/g, '%25')
                  .replace(/=([0-9A-F]{2})/g, '%$1'),
              )
            : `${part![2]!}\r\n`; // 7bit: as it is
      const { events } = parseIcs(body);
      expect(events).toEqual([
        expect.objectContaining({
          UID: `workshop-session-${session.id}@localhost`,
          URL: JOIN,
          DTSTART: utc(session.startsAt),
        }),
      ]);
    });

    it('carries none for a self-paced course or a team purchase', async () => {
      const course = await createProduct(db(), { name: 'Plain Course' });
      const team = await createProduct(db(), { name: 'Team Workshop', productType: 'live' });
      await createWorkshopSession(db(), { product: team });
      const buyer = await createUser(db());
      await boughtWithTestProvider(services, db(), { buyer, productId: course.id });
      await boughtWithTestProvider(services, db(), { buyer, productId: team.id, quantity: 2 });
      const receipts = await OutboxEmail.query(db()).where({ toAddress: buyer.email, kind: 'receipt' });
      expect(receipts).toHaveLength(2);
      expect(receipts.map((r) => r.attachments)).toEqual([null, null]);
    });

    it('keeps attachments out of the log transport', async () => {
      let logged = '';
      const sink = new Writable({
        write(chunk, _encoding, done) {
          logged += String(chunk);
          done();
        },
      });
      const transport = createTransport({ MAIL_FROM: 'x <x@example.com>' } as never, pino(sink));
      await transport.send({
        to: 'log@example.com',
        subject: 'Invite',
        text: 'See the attachment.',
        attachments: [{ filename: 'workshop.ics', contentType: 'text/calendar', content: `URL:${JOIN}` }],
      });
      expect(logged).toContain('log@example.com');
      expect(logged).not.toContain('secret-room');
      expect(logged).not.toContain('workshop.ics');
    });
  });

  describe('reminders', () => {
    it('sends each holder one reminder a day and one an hour before, however many sweeps run at once', async () => {
      const clock = manualClock();
      const deps = testDeps(db(), { clock });
      const swept = createServices(deps);
      const product = await createProduct(db(), { name: 'Reminded Workshop', productType: 'live' });
      const startsAt = new Date(Date.now() + 30 * HOUR);
      const session = await createWorkshopSession(db(), { product, title: 'Kick-off', startsAt, joinUrl: JOIN });
      const holders = await Promise.all([1, 2, 3].map(() => createUser(db())));
      for (const user of holders) await createPurchase(db(), { user, product });
      const refundedUser = await createUser(db());
      await createPurchase(db(), { user: refundedUser, product, status: 'Refunded' });
      const emailsOf = (kind: string) =>
        OutboxEmail.query(db())
          .where('kind', kind)
          .whereIn(
            'toAddress',
            [...holders, refundedUser].map((u) => u.email),
          );
      // Other tests' sessions share the database: count this session's reminders, not the sweep's totals.
      const remindersOf = async (kind: string) =>
        Number((await db()('workshopReminders').where({ sessionId: session.id, kind }).count())[0]!.count);
      const sweep = async () => {
        await swept.workshops.sendReminders();
        return { day: await remindersOf('day'), hour: await remindersOf('hour') };
      };

      // 25 hours before: nothing is due yet.
      clock.set(new Date(startsAt.getTime() - 25 * HOUR));
      expect(await sweep()).toEqual({ day: 0, hour: 0 });

      // 23 hours before: the day's reminder, from four sweeps at once, exactly once per holder.
      clock.set(new Date(startsAt.getTime() - 23 * HOUR));
      await Promise.all([1, 2, 3, 4].map(() => swept.workshops.sendReminders()));
      expect({ day: await remindersOf('day'), hour: await remindersOf('hour') }).toEqual({ day: 3, hour: 0 });
      const dayEmails = await emailsOf('workshop-reminder-day');
      expect(dayEmails.map((e) => e.toAddress).sort()).toEqual(holders.map((u) => u.email).sort());
      expect(dayEmails[0]!.textBody).toContain(JOIN);
      expect(dayEmails[0]!.attachments?.[0]?.content).toContain(`UID:workshop-session-${session.id}@localhost`);

      // Later sweeps in the same window send nothing more.
      clock.set(new Date(startsAt.getTime() - 2 * HOUR));
      expect(await sweep()).toEqual({ day: 3, hour: 0 });
      expect(await emailsOf('workshop-reminder-day')).toHaveLength(3);

      // Within the hour: the hour's reminder, once each, again whatever the concurrency.
      clock.set(new Date(startsAt.getTime() - 50 * 60 * 1000));
      await Promise.all([1, 2].map(() => swept.workshops.sendReminders()));
      expect(await remindersOf('hour')).toBe(3);
      expect((await emailsOf('workshop-reminder-hour')).map((e) => e.toAddress).sort()).toEqual(
        holders.map((u) => u.email).sort(),
      );
      clock.set(new Date(startsAt.getTime() - 10 * 60 * 1000));
      expect(await sweep()).toEqual({ day: 3, hour: 3 });

      // Once it started, no reminder goes out; the refunded buyer never got one.
      clock.set(new Date(startsAt.getTime() + 60 * 1000));
      expect(await sweep()).toEqual({ day: 3, hour: 3 });
      expect(await emailsOf('workshop-reminder-hour')).toHaveLength(3);
      expect((await emailsOf('workshop-reminder-day')).some((e) => e.toAddress === refundedUser.email)).toBe(false);
    });

    it('gives a session scheduled within the hour only the hour reminder', async () => {
      const clock = manualClock();
      const swept = createServices(testDeps(db(), { clock }));
      const product = await createProduct(db(), { name: 'Short Notice Workshop', productType: 'live' });
      const startsAt = new Date(clock.now().getTime() + 40 * 60 * 1000);
      await createWorkshopSession(db(), { product, startsAt });
      const holder = await createUser(db());
      await createPurchase(db(), { user: holder, product });
      await swept.workshops.sendReminders();
      const kinds = (await OutboxEmail.query(db()).where('toAddress', holder.email)).map((e) => e.kind);
      expect(kinds).toEqual(['workshop-reminder-hour']);
    });
  });
});
