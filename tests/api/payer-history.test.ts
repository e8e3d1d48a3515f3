import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { MigrationDirectory } from '../../api/src/db/migrations';
import type { User } from '../../api/src/identity/models';
import { createServices, type Services } from '../../api/src/services';
import { shownName } from '../../api/src/shared/shown-name';
import { createProduct } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn, signedInByEmail, type SignedIn } from '../support/auth';
import { boughtWithTestProvider } from '../support/checkout';
import { csvRows } from '../support/csv';
import { useTestDatabase } from '../support/db';
import { Coupon, Purchase } from '../support/models';

/**
 * Who paid never changes (docs/domain.md §8, §18.5): a purchase given away by a transfer, moved by support, or held as
 * a team's seat stays its payer's on the invoice, the timelines and the exports; whoever holds it was given it.
 */
describe('the payer stays the payer', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let course: { id: string; name: string };
  let support: SignedIn;
  let finance: SignedIn;

  beforeAll(async () => {
    const deps = testDeps(db());
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    course = await createProduct(db(), { name: 'Given Course', unitAmount: 6_000 });
    support = await signedIn(db(), ['support']);
    finance = await signedIn(db(), ['finance']);
  });

  const store = (who: SignedIn, path: string) => as(who, request(app).get(`/api/store${path}`));
  const timeline = async (user: User) =>
    (await as(support, request(app).get(`/api/admin/users/${user.id}/timeline`))).body.data as {
      kind: string;
      summary: string;
      detail: string | null;
    }[];
  const myPurchase = async (who: SignedIn, purchaseId: string) =>
    ((await store(who, '/purchases')).body.data as { id: string }[]).find((p) => p.id === purchaseId);

  /** A paid purchase and its invoice as its payer sees it before anything moves. */
  async function paid(payer: SignedIn) {
    const purchaseId = await boughtWithTestProvider(services, db(), { buyer: payer.user, productId: course.id });
    const chargeId = (await Purchase.query(db()).findById(purchaseId))!.merchantChargeId!;
    const invoice = await db()('invoices').where({ merchantChargeId: chargeId, kind: 'invoice' }).first();
    const before = await store(payer, `/invoices/${invoice.id}`);
    expect(before.status).toBe(200);
    return { purchaseId, chargeId, invoice: before.body as { id: string; number: string } };
  }

  /** What must hold after the purchase changed hands: nothing about the payment moved with it. */
  async function expectStillThePayers(
    payer: SignedIn,
    holder: SignedIn,
    sale: Awaited<ReturnType<typeof paid>>,
    how: 'transfer' | 'move',
  ) {
    // The payer's invoice answers as before, same number, same buyer; the holder has none and cannot open it.
    const after = await store(payer, `/invoices/${sale.invoice.id}`);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ number: sale.invoice.number, buyer: { email: payer.user.email } });
    expect((await store(payer, `/invoices/${sale.chargeId}`)).body.number).toBe(sale.invoice.number);
    expect((await store(holder, `/invoices/${sale.invoice.id}`)).status).toBe(404);
    expect((await store(holder, `/invoices/${sale.chargeId}`)).status).toBe(404);
    expect((await store(holder, `/invoices/${sale.invoice.id}.pdf`)).status).toBe(404);
    expect((await store(payer, '/invoices')).body.data.map((d: { id: string }) => d.id)).toContain(sale.invoice.id);
    expect((await store(holder, '/invoices')).body.data).toEqual([]);
    // The charge and its provider customer stay the payer's.
    const charge = await db()('merchantCharges').where({ id: sale.chargeId }).first();
    expect(charge.userId).toBe(payer.user.id);
    expect(await db()('merchantCustomers').where({ id: charge.merchantCustomerId }).first('userId')).toEqual({
      userId: payer.user.id,
    });

    // The holder's My purchases: given, by whom and how, no invoice.
    expect(await myPurchase(holder, sale.purchaseId)).toMatchObject({
      invoiceId: null,
      givenBy: { name: shownName(payer.user), how, at: expect.any(String) },
    });
    expect(await myPurchase(payer, sale.purchaseId)).toBeUndefined();

    // Timelines: the payer bought, paid and gave; the holder was given it, and paid nothing.
    const payers = await timeline(payer.user);
    expect(payers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'purchase', summary: `Bought ${course.name} for $60.00` }),
        expect.objectContaining({ kind: 'payment', summary: 'Paid $60.00' }),
        expect.objectContaining({ kind: 'transfer', summary: `Gave ${course.name} to ${holder.user.email}` }),
      ]),
    );
    const holders = await timeline(holder.user);
    expect(holders).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'transfer', summary: `Was given ${course.name} by ${payer.user.email}` }),
      ]),
    );
    expect(holders.filter((e) => ['purchase', 'payment'].includes(e.kind))).toEqual([]);
    expect(holders.find((e) => e.kind === 'transfer')!.detail).toBe(
      `${how === 'move' ? 'Moved by support' : 'Offered and accepted'} · Paid nothing, no invoice`,
    );

    // Their page's totals: the money is the payer's; the holder holds a purchase and paid nothing.
    const totals = async (user: User) =>
      (await as(support, request(app).get(`/api/admin/users/${user.id}/purchase-totals`))).body.currencies;
    expect(await totals(payer.user)).toEqual([expect.objectContaining({ currency: 'usd', paid: 6_000, charges: 1 })]);
    expect(await totals(holder.user)).toEqual([
      expect.objectContaining({ currency: 'usd', paid: 0, charges: 0, purchases: 1 }),
    ]);

    // The charges export names the payer as the buyer.
    const csv = await as(finance, request(app).get('/api/admin/exports/charges.csv?from=2020-01-01&to=2099-12-31'));
    const row = csvRows(csv.text).find((r) => r.Purchase === sale.purchaseId);
    expect(row).toMatchObject({ 'Buyer email': payer.user.email });
  }

  it('keeps a transferred purchase’s invoice, charge and history with its payer; the recipient was given it', async () => {
    const payer = await signedIn(db());
    const sale = await paid(payer);
    const offer = await services.transfers.initiate(payer.user.id, sale.purchaseId, 'given.friend@example.com');
    const friend = await signedInByEmail(db(), 'given.friend@example.com');
    await services.transfers.verify(friend.user.id, offer.id);
    await services.transfers.accept(friend.user.id, offer.id);
    expect((await Purchase.query(db()).findById(sale.purchaseId))!.userId).toBe(friend.user.id);
    await expectStillThePayers(payer, friend, sale, 'transfer');

    // A refund after the transfer: its credit note is the payer's, as is the email that says the money went back.
    const refund = await as(support, request(app).post(`/api/admin/purchases/${sale.purchaseId}/refund`)).send({
      amount: 1_000,
      reasonCode: 'customer-request',
      reason: 'Part of it',
    });
    expect(refund.status).toBe(200);
    const note = await db()('invoices').where({ merchantChargeId: sale.chargeId, kind: 'credit-note' }).first();
    expect(note.payerUserId).toBe(payer.user.id);
    expect((await store(payer, `/invoices/${note.id}`)).status).toBe(200);
    expect((await store(friend, `/invoices/${note.id}`)).status).toBe(404);
    expect(await db()('outboxEmails').where({ toAddress: payer.user.email, kind: 'refund' }).first()).toBeTruthy();
  });

  it('keeps a purchase support moved with its payer; the new holder was given it by a move', async () => {
    const payer = await signedIn(db());
    const sale = await paid(payer);
    const moved = await as(support, request(app).post(`/api/admin/purchases/${sale.purchaseId}/move`)).send({
      email: 'moved.here@example.com',
    });
    expect(moved.status).toBe(200);
    const holder = await signedInByEmail(db(), 'moved.here@example.com');
    await expectStillThePayers(payer, holder, sale, 'move');
  });

  it('gives a team seat holder no invoice but the record of whose team it came from', async () => {
    const buyer = await signedIn(db());
    const teamId = await boughtWithTestProvider(services, db(), {
      buyer: buyer.user,
      productId: course.id,
      quantity: 2,
      team: true,
    });
    const coupon = (await Coupon.query(db()).findById((await Purchase.query(db()).findById(teamId))!.bulkCouponId!))!;
    const member = await signedIn(db());
    const redeemed = await as(member, request(app).post(`/api/store/invites/${coupon.inviteCode}/redeem`)).send();
    expect(redeemed.status).toBe(201);
    expect(await myPurchase(member, redeemed.body.purchaseId)).toMatchObject({
      seat: true,
      invoiceId: null,
      givenBy: { name: shownName(buyer.user), how: 'seat' },
    });
    expect((await store(member, '/invoices')).body.data).toEqual([]);
    const teamInvoice = await db()('invoices')
      .where({ merchantChargeId: (await Purchase.query(db()).findById(teamId))!.merchantChargeId, kind: 'invoice' })
      .first();
    expect((await store(member, `/invoices/${teamInvoice.id}`)).status).toBe(404);
    expect((await store(buyer, `/invoices/${teamInvoice.id}`)).status).toBe(200);
    // The buyer's own team purchase still carries its invoice; taking a seat of their own team is not a gift.
    expect(await myPurchase(buyer, teamId)).toMatchObject({ givenBy: null, invoiceId: expect.any(String) });
    const own = await as(buyer, request(app).post(`/api/store/teams/${teamId}/claim`)).send();
    expect(own.status).toBe(200);
    const ownSeat = ((await store(buyer, '/purchases')).body.data as { seat: boolean; givenBy: unknown }[]).find(
      (p) => p.seat,
    );
    expect(ownSeat).toMatchObject({ givenBy: null });
    // The seat holder's timeline says they took a seat; the payment is on the buyer's.
    const members = await timeline(member.user);
    expect(members.filter((e) => e.kind === 'payment')).toEqual([]);
    expect(members.find((e) => e.kind === 'seat')!.summary).toBe(
      `${member.user.email} took a team seat of ${course.name}`,
    );
    expect((await timeline(buyer.user)).filter((e) => e.kind === 'payment')).toHaveLength(1);
  });

  it('gives the friend who claims a gift no invoice but the record of who gave it; the giver keeps the invoice', async () => {
    const giver = await signedIn(db());
    const started = await as(giver, request(app).post('/api/store/checkout')).send({
      productId: course.id,
      gift: true,
    });
    expect(started.status).toBe(201);
    expect((await request(app).post(`${new URL(started.body.url).pathname}/pay`)).status).toBe(303);
    const gift = (await request(app).get(`/api/store/checkouts/${started.body.checkoutId}`)).body.purchaseId as string;
    const coupon = (await Coupon.query(db()).findById((await Purchase.query(db()).findById(gift))!.bulkCouponId!))!;
    const friend = await signedIn(db());
    const claimed = await as(friend, request(app).post(`/api/store/invites/${coupon.inviteCode}/redeem`)).send();
    expect(claimed.status).toBe(201);
    expect(await myPurchase(friend, claimed.body.purchaseId)).toMatchObject({
      seatFromGift: true,
      invoiceId: null,
      givenBy: { name: shownName(giver.user), how: 'gift' },
    });
    expect((await store(friend, '/invoices')).body.data).toEqual([]);
    const invoices = (await store(giver, '/invoices')).body.data as { id: string }[];
    expect(invoices).toHaveLength(1);
    expect((await store(friend, `/invoices/${invoices[0]!.id}`)).status).toBe(404);
  });

  it('gives charges that transfers and moves handed over before back to their payers, and marks support’s moves', async () => {
    const given = async (how: 'transfer' | 'move') => {
      const payer = await signedIn(db());
      const sale = await paid(payer);
      const email = `${how}.legacy.${payer.user.id.slice(0, 8)}@example.com`;
      if (how === 'move') {
        await services.transfers.moveDirectly(
          { id: support.user.id, email: support.user.email },
          sale.purchaseId,
          email,
        );
      } else {
        const offer = await services.transfers.initiate(payer.user.id, sale.purchaseId, email);
        const recipient = await signedInByEmail(db(), email);
        await services.transfers.verify(recipient.user.id, offer.id);
        await services.transfers.accept(recipient.user.id, offer.id);
      }
      const holder = (await Purchase.query(db()).findById(sale.purchaseId))!.userId;
      // As moves used to leave them: the charge and its customer the holder's.
      const charge = await db()('merchantCharges')
        .where({ id: sale.chargeId })
        .update({ userId: holder })
        .returning('*');
      await db()('merchantCustomers').where({ id: charge[0].merchantCustomerId }).update({ userId: holder });
      return { payer, chargeId: sale.chargeId, customerId: charge[0].merchantCustomerId as string, holder };
    };
    const transferred = await given('transfer');
    const moved = await given('move');
    const kept = await paid(await signedIn(db()));
    const keptPayer = (await db()('merchantCharges').where({ id: kept.chargeId }).first()).userId;
    await db()('purchaseUserTransfers').update({ bySupport: false });

    const source = new MigrationDirectory();
    for (const name of [
      '20261129060100_add_by_support_to_purchase_user_transfers.ts',
      '20261129060000_restore_payers_on_given_charges.ts',
    ])
      await db().migrate.down({ migrationSource: source, name });
    await db().migrate.latest({ migrationSource: source });

    for (const { payer, chargeId, customerId } of [transferred, moved]) {
      expect((await db()('merchantCharges').where({ id: chargeId }).first()).userId).toBe(payer.user.id);
      expect((await db()('merchantCustomers').where({ id: customerId }).first()).userId).toBe(payer.user.id);
    }
    expect((await db()('merchantCharges').where({ id: kept.chargeId }).first()).userId).toBe(keptPayer);
    const completed = await db()('purchaseUserTransfers')
      .where({ transferState: 'COMPLETED' })
      .whereIn('targetUserId', [transferred.holder, moved.holder])
      .select('targetUserId', 'bySupport');
    expect(Object.fromEntries(completed.map((t) => [t.targetUserId, t.bySupport]))).toEqual({
      [transferred.holder]: false,
      [moved.holder]: true,
    });
  });
});
