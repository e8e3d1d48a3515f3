import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { type Product, Purchase, PurchaseUserTransfer } from '../support/models';
import type { User } from '../../api/src/identity/models';
import { createServices, type Services } from '../../api/src/services';
import { createProduct } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn, signedInByEmail, type SignedIn } from '../support/auth';
import { manualClock } from '../support/clock';
import { boughtWithTestProvider } from '../support/checkout';
import { raceTransferAgainstRefund } from '../support/transfer-race';
import { useTestDatabase } from '../support/db';

const DAY = 86_400_000;

describe('purchase transfers (docs/domain.md §8)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const clock = manualClock();
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let course: Product;
  let support: SignedIn;

  beforeAll(async () => {
    const deps = testDeps(db(), { clock });
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    course = await createProduct(db(), { name: 'Transferable Course', unitAmount: 5000 });
    support = await signedIn(db(), ['support']);
  });

  const bought = (owner: User) => boughtWithTestProvider(services, db(), { buyer: owner, productId: course.id });

  const state = async (transferId: string) =>
    (await PurchaseUserTransfer.query(db()).findById(transferId))!.transferState;
  const call = (who: SignedIn, method: 'get' | 'post', path: string, body?: object) =>
    as(who, request(app)[method](`/api/store${path}`)).send(body);

  it('gives a purchase away: AVAILABLE → INITIATED → VERIFIED → CONFIRMED → COMPLETED, and access moves', async () => {
    const owner = await signedIn(db(), ['learner']);
    const purchaseId = await bought(owner.user);
    const offered = await call(owner, 'get', `/purchases/${purchaseId}/transfer`);
    expect(offered.body.data).toMatchObject({ state: 'AVAILABLE', purchaseId });
    const transferId = offered.body.data.id;

    const initiated = await call(owner, 'post', `/purchases/${purchaseId}/transfer`, { email: 'Friend@Example.com' });
    expect(initiated.status).toBe(200);
    expect(initiated.body.data).toMatchObject({ state: 'INITIATED', recipientEmail: 'friend@example.com' });
    const email = await db()('outboxEmails').where({ toAddress: 'friend@example.com', kind: 'transfer-offer' }).first();
    expect(email.textBody).toContain(`/transfers/${transferId}`);

    const friend = await signedInByEmail(db(), 'friend@example.com');
    expect((await call(friend, 'get', `/transfers/${transferId}`)).body.data).toMatchObject({
      state: 'INITIATED',
      ownerEmail: owner.user.email,
      product: { name: 'Transferable Course', slug: course.slug },
    });
    expect((await call(friend, 'post', `/transfers/${transferId}/accept`)).body.code).toBe('transfer-not-available'); // verify first
    expect((await call(friend, 'post', `/transfers/${transferId}/verify`)).body.data.state).toBe('VERIFIED');
    const accepted = await call(friend, 'post', `/transfers/${transferId}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ state: 'COMPLETED' });

    const transfer = (await PurchaseUserTransfer.query(db()).findById(transferId))!;
    expect(transfer.confirmedAt).toBeTruthy();
    expect(transfer.completedAt).toBeTruthy();
    const purchase = (await Purchase.query(db()).findById(purchaseId))!;
    expect(purchase.userId).toBe(friend.user.id);
    // Who paid does not change: the charge, its customer (email included) and its invoice stay the payer's.
    const charge = await db()('merchantCharges').where({ id: purchase.merchantChargeId }).first();
    expect(charge.userId).toBe(owner.user.id);
    expect(await db()('merchantCustomers').where({ id: charge.merchantCustomerId }).first('userId')).toEqual({
      userId: owner.user.id,
    });
    expect(
      await db()('testProviderSessions').where({ chargeIdentifier: charge.identifier }).first('customerEmail'),
    ).toEqual({
      customerEmail: owner.user.email,
    });
    // The old owner loses the purchase but keeps its invoice; the recipient has the course, no invoice.
    expect((await call(owner, 'get', '/purchases')).body.data.map((p: { id: string }) => p.id)).not.toContain(
      purchaseId,
    );
    expect((await call(owner, 'get', `/invoices/${charge.id}`)).status).toBe(200);
    expect((await call(friend, 'get', `/invoices/${charge.id}`)).status).toBe(404);
    const actions = (await db()('auditLogs').whereIn('recordId', [transferId, purchaseId]).orderBy('id')).map(
      (a: { action: string }) => a.action,
    );
    expect(actions).toEqual(expect.arrayContaining(['transfer.initiated', 'transfer.confirmed', 'transfer.completed']));
    // Given away once.
    expect((await call(friend, 'get', `/purchases/${purchaseId}/transfer`)).body.data).toBeNull();
  });

  it('cancels an initiated or verified transfer (owner only), reopening it with the same window', async () => {
    const owner = await signedIn(db(), ['learner']);
    const purchaseId = await bought(owner.user);
    const first = (await call(owner, 'post', `/purchases/${purchaseId}/transfer`, { email: 'first@example.com' })).body
      .data;
    const stranger = await signedIn(db(), ['learner']);
    expect((await call(stranger, 'post', `/transfers/${first.id}/cancel`)).body.code).toBe('not-purchase-owner');
    const canceled = await call(owner, 'post', `/transfers/${first.id}/cancel`);
    expect(canceled.body.data).toMatchObject({ state: 'AVAILABLE', expiresAt: first.expiresAt });
    expect(await state(first.id)).toBe('CANCELED');
    expect((await call(owner, 'post', `/transfers/${first.id}/cancel`)).body.code).toBe('transfer-not-available');

    const second = (await call(owner, 'post', `/purchases/${purchaseId}/transfer`, { email: 'second@example.com' }))
      .body.data;
    const recipient = await signedInByEmail(db(), 'second@example.com');
    await call(recipient, 'post', `/transfers/${second.id}/verify`);
    expect((await call(owner, 'post', `/transfers/${second.id}/cancel`)).status).toBe(200);
    expect(await state(second.id)).toBe('CANCELED');
    const late = await call(recipient, 'post', `/transfers/${second.id}/accept`);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('transfer-not-available');
    expect((await Purchase.query(db()).findById(purchaseId))!.userId).toBe(owner.user.id);
  });

  it('refuses every move that the state machine does not draw, with its code', async () => {
    const owner = await signedIn(db(), ['learner']);
    const purchaseId = await bought(owner.user);
    const stranger = await signedIn(db(), ['learner']);
    expect((await call(stranger, 'get', `/purchases/${purchaseId}/transfer`)).body.code).toBe('not-purchase-owner');
    expect(
      (await call(stranger, 'post', `/purchases/${purchaseId}/transfer`, { email: 'x@example.com' })).body.code,
    ).toBe('not-purchase-owner');
    expect(
      (await call(owner, 'post', `/purchases/${purchaseId}/transfer`, { email: owner.user.email })).body.code,
    ).toBe('validation-failed');
    expect((await call(owner, 'post', `/purchases/${purchaseId}/transfer`, { email: 'not an email' })).status).toBe(
      400,
    );
    const alreadyOwns = await signedIn(db(), ['learner']);
    await bought(alreadyOwns.user);
    expect(
      (await call(owner, 'post', `/purchases/${purchaseId}/transfer`, { email: alreadyOwns.user.email })).body.code,
    ).toBe('already-purchased');

    const transfer = (await call(owner, 'post', `/purchases/${purchaseId}/transfer`, { email: 'named@example.com' }))
      .body.data;
    expect(
      (await call(owner, 'post', `/purchases/${purchaseId}/transfer`, { email: 'other@example.com' })).body.code,
    ).toBe('transfer-not-available');
    for (const path of [
      `/transfers/${transfer.id}`,
      `/transfers/${transfer.id}/verify`,
      `/transfers/${transfer.id}/accept`,
    ]) {
      const answer = await call(stranger, path.endsWith('}') || !path.includes('/', 12) ? 'get' : 'post', path);
      expect(answer.status).toBe(409);
      expect(answer.body.code).toBe('not-transfer-recipient');
    }
    expect((await call(owner, 'get', '/transfers/00000000-0000-4000-8000-000000000000')).body.code).toBe(
      'transfer-not-found',
    );
    expect((await call(owner, 'get', '/transfers/00000000-0000-4000-8000-000000000000')).status).toBe(404);

    // A team purchase and a redeemed seat are not transferable.
    const teamBuyer = await signedIn(db(), ['learner']);
    const team = await boughtWithTestProvider(services, db(), {
      buyer: teamBuyer.user,
      productId: course.id,
      quantity: 3,
    });
    expect((await call(teamBuyer, 'get', `/purchases/${team}/transfer`)).body.data).toBeNull();
    expect((await call(teamBuyer, 'post', `/purchases/${team}/transfer`, { email: 'y@example.com' })).body.code).toBe(
      'transfer-not-available',
    );
  });

  it('expires an open transfer when the window passes, by the sweep and on any read', async () => {
    const owner = await signedIn(db(), ['learner']);
    const available = await bought(owner.user);
    const initiatedPurchase = await bought((await signedIn(db(), ['learner'])).user);
    const initiatedOwner = (await Purchase.query(db()).findById(initiatedPurchase))!.userId;
    const initiated = await services.transfers.initiate(initiatedOwner, initiatedPurchase, 'late@example.com');
    const verifiedPurchase = await bought((await signedIn(db(), ['learner'])).user);
    const verifiedOwner = (await Purchase.query(db()).findById(verifiedPurchase))!.userId;
    const verified = await services.transfers.initiate(verifiedOwner, verifiedPurchase, 'later@example.com');
    const later = await signedInByEmail(db(), 'later@example.com');
    await services.transfers.verify(later.user.id, verified.id);

    clock.set(new Date(Date.now() + 7 * DAY + 60_000)); // the window (7 days from each purchase) has passed
    try {
      expect(await services.transfers.expire()).toBeGreaterThanOrEqual(2);
      expect(await state(initiated.id)).toBe('EXPIRED');
      expect(await state(verified.id)).toBe('EXPIRED');
      const accept = await call(later, 'post', `/transfers/${verified.id}/accept`);
      expect(accept.body.code).toBe('transfer-expired');
      // The untouched AVAILABLE one expires on read.
      const read = await call(owner, 'post', `/purchases/${available}/transfer`, { email: 'too-late@example.com' });
      expect(read.body.code).toBe('transfer-expired');
      expect(await PurchaseUserTransfer.query(db()).where({ purchaseId: available }).select('transferState')).toEqual([
        { transferState: 'EXPIRED' },
      ]);
    } finally {
      clock.set(new Date());
    }
  });

  it('cancels an open transfer when the purchase is refunded, disputed or banned', async () => {
    const owner = await signedIn(db(), ['learner']);
    const purchaseId = await bought(owner.user);
    const transfer = await services.transfers.initiate(owner.user.id, purchaseId, 'refund-race@example.com');
    const refunded = await as(support, request(app).post(`/api/admin/purchases/${purchaseId}/refund`)).send({
      reasonCode: 'customer-request',
      reason: 'Changed their mind',
    });
    expect(refunded.status).toBe(200);
    expect(await state(transfer.id)).toBe('CANCELED');
    const recipient = await signedInByEmail(db(), 'refund-race@example.com');
    expect((await call(recipient, 'post', `/transfers/${transfer.id}/verify`)).body.code).toBe(
      'transfer-not-available',
    );
  });

  it('ends in one consistent state when a transfer races a refund (200 attempts)', async () => {
    const attempts = 200;
    const outcomes: Record<string, number> = { 'transferred-then-refunded': 0, 'refunded-first': 0 };
    for (let start = 0; start < attempts; start += 20) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          raceTransferAgainstRefund({ db: db(), services, productId: course.id, support, n: start + i, spreadMs: 200 }),
        ),
      );
      for (const outcome of batch) outcomes[outcome]!++;
    }
    expect(outcomes['transferred-then-refunded']! + outcomes['refunded-first']!).toBe(attempts);
    expect(outcomes['transferred-then-refunded']).toBeGreaterThan(0);
    expect(outcomes['refunded-first']).toBeGreaterThan(0);
    console.info(`transfer vs refund, ${attempts} races:`, outcomes);
  }, 120_000); // 200 whole purchases, bought, offered and raced

  it('lets support move a purchase to another email directly, recorded as a completed transfer and audited', async () => {
    const owner = await signedIn(db(), ['learner']);
    const purchaseId = await bought(owner.user);
    const learner = await signedIn(db(), ['learner']);
    const refused = await as(learner, request(app).post(`/api/admin/purchases/${purchaseId}/move`)).send({
      email: 'right@example.com',
    });
    expect(refused.status).toBe(403);
    const moved = await as(support, request(app).post(`/api/admin/purchases/${purchaseId}/move`)).send({
      email: 'Right@Example.com',
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ state: 'COMPLETED', recipientEmail: 'right@example.com' });
    const purchase = (await Purchase.query(db()).findById(purchaseId))!;
    const right = await db()('users').where({ email: 'right@example.com' }).first();
    expect(purchase.userId).toBe(right.id);
    const rows = await PurchaseUserTransfer.query(db()).where({ purchaseId }).orderBy('createdAt');
    expect(rows.map((r) => r.transferState).sort()).toEqual(['CANCELED', 'COMPLETED']);
    const audit = await db()('auditLogs').where({ recordId: purchaseId, action: 'transfer.moved-by-support' }).first();
    expect(audit).toMatchObject({ actorId: support.user.id });
    expect(audit.before).toMatchObject({ email: owner.user.email });
    expect(
      await db()('outboxEmails').where({ toAddress: 'right@example.com', kind: 'purchase-received' }).first(),
    ).toBeTruthy();
    expect(
      await db()('outboxEmails').where({ toAddress: owner.user.email, kind: 'transfer-completed' }).first(),
    ).toBeTruthy();
  });
});
