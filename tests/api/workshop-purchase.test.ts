import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { createServices, type Services } from '../../api/src/services';
import { createProduct, createUser, createWorkshopSession } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn } from '../support/auth';
import { boughtWithTestProvider, paidTestCheckout } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { parseIcs } from '../support/ics';
import { OutboxEmail, type Product } from '../support/models';

const DAY = 86_400_000;
const JOIN = 'https://meet.example.com/kolkata-room';

describe('buying a live workshop: the receipt, the thank-you answer and the calendar file (docs/domain.md §14)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let workshop: Product;
  const starts = new Date(Math.floor(Date.now() / DAY) * DAY + 10 * DAY + 13 * 3_600_000); // 13:00 UTC

  beforeAll(async () => {
    const deps = testDeps(db());
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    workshop = await createProduct(db(), { name: 'Kolkata Workshop', productType: 'live', unitAmount: 20_000 });
    await createWorkshopSession(db(), {
      product: workshop,
      title: 'Day 1',
      startsAt: starts,
      timeZone: 'Europe/Berlin',
      joinUrl: JOIN,
    });
    await createWorkshopSession(db(), {
      product: workshop,
      title: 'Day 2',
      startsAt: new Date(starts.getTime() + DAY),
      timeZone: 'Europe/Berlin',
      joinUrl: null,
    });
  });

  it('writes each session in the buyer’s own zone, names it, gives the join link and attaches every session', async () => {
    const buyer = await createUser(db(), { email: 'kolkata@example.com' });
    await db()('userPrefs').insert({ userId: buyer.id, type: 'global', fields: { timeZone: 'Asia/Kolkata' } });
    const checkoutId = await paidTestCheckout(services, db(), { buyer, productId: workshop.id });
    const outcome = await services.checkouts.outcome(checkoutId, buyer.id);
    expect(outcome.receipt?.product).toMatchObject({ id: workshop.id, productType: 'live' });

    const receipt = (await OutboxEmail.query(db()).findOne({ toAddress: buyer.email, kind: 'receipt' }))!;
    const text = receipt.textBody!;
    // 13:00 UTC is 6:30 PM in Kolkata, 8:30 PM the end two hours later.
    const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeZone: 'Asia/Kolkata' }).format(starts);
    expect(text).toContain(`- Day 1: ${day} at 6:30 PM GMT+5:30 to 8:30 PM GMT+5:30 (Asia/Kolkata)`);
    expect(text).toContain('The workshop’s sessions (times in Asia/Kolkata):');
    expect(text).toContain(`Join: ${JOIN}`);
    expect(text).toContain('Your workshop: this link opens My learning');
    expect(text).not.toContain('opens the course');
    expect(receipt.htmlBody).toContain('Go to your workshop');
    expect(receipt.attachments).toHaveLength(1);
    const { events } = parseIcs(receipt.attachments![0]!.content);
    expect(events.map((e) => e.SUMMARY)).toEqual(['Kolkata Workshop: Day 1', 'Kolkata Workshop: Day 2']);
  });

  it('writes UTC, named, for a buyer whose settings name no zone', async () => {
    const buyer = await createUser(db());
    await boughtWithTestProvider(services, db(), { buyer, productId: workshop.id });
    const receipt = (await OutboxEmail.query(db()).findOne({ toAddress: buyer.email, kind: 'receipt' }))!;
    expect(receipt.textBody).toContain('(times in UTC)');
    expect(receipt.textBody).toMatch(/- Day 1: .* at 1:00 PM UTC to 3:00 PM UTC\n/);
  });

  it('serves one calendar file with every session to a holder, and to nobody else', async () => {
    const holder = await signedIn(db());
    await boughtWithTestProvider(services, db(), { buyer: holder.user, productId: workshop.id });
    const path = `/api/store/products/${workshop.id}/calendar.ics`;
    const mine = await as(holder, request(app).get('/api/store/workshops'));
    expect(mine.body.data[0]).toMatchObject({ product: { id: workshop.id }, calendarUrl: path });

    const file = await as(holder, request(app).get(path));
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(file.headers['content-disposition']).toBe('attachment; filename="workshop.ics"');
    const { events } = parseIcs(file.text);
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ SUMMARY: 'Kolkata Workshop: Day 1', URL: JOIN });

    const stranger = await signedIn(db());
    const refused = await as(stranger, request(app).get(path));
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 403, code: 'workshop-not-held' });
    expect((await request(app).get(path)).status).toBe(401);
    const gone = await as(
      holder,
      request(app).get('/api/store/products/00000000-0000-4000-8000-000000000000/calendar.ics'),
    );
    expect(gone.status).toBe(404);
  });
});
