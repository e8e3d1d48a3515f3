import type { Db } from '../../api/src/db/connection';
import { hashSecret } from '../../api/src/identity/secrets';
import { createLogger } from '../../api/src/logger';
import { outbox } from '../../api/src/mail/outbox';
import { silentTransport } from './app';
import { runSeeds } from '../../seeds/run';
import { createCoupon, createPurchase, createUser } from '../../seeds/factories';
import { Product, User } from './models';
import { issueCreditNote, issueInvoice } from '../../api/src/invoices/issue';

/** The secrets planted in the fixture: none of them, nor their hashes, may appear in any console answer. */
export const PLANTED_SECRETS = [
  'session-secret',
  'device-secret',
  'verification-secret',
  'device-code-secret',
  'outbox-sign-in-secret',
  'waitlist-leave-secret',
];

/**
 * The demo data plus at least one row in every table the console serves: a paid purchase with its merchant
 * records, a team purchase with a redeemed seat, a transfer, learner activity, credentials of every kind.
 */
export async function seedEverything(db: Db) {
  await runSeeds(db, { demo: true });
  const buyer = (await User.query(db).findOne({ email: 'learner@example.com' }))!;
  const product = (await Product.query(db).findOne({ key: 'typescript-fundamentals' }).withGraphFetched('prices'))!;
  const account = await db('merchantAccounts').where({ label: 'test' }).first();

  const [merchantProduct] = await db('merchantProducts')
    .insert({ merchantAccountId: account.id, identifier: 'prod_1', productId: product.id })
    .returning('*');
  await db('merchantPrices').insert({
    merchantAccountId: account.id,
    identifier: 'price_1',
    merchantProductId: merchantProduct.id,
    priceId: product.prices![0]!.id,
  });
  const [customer] = await db('merchantCustomers')
    .insert({ merchantAccountId: account.id, identifier: 'cus_1', userId: buyer.id })
    .returning('*');
  const [session] = await db('merchantSessions')
    .insert({ merchantAccountId: account.id, identifier: 'cs_1' })
    .returning('*');
  const [merchantCoupon] = await db('merchantCoupons')
    .insert({ merchantAccountId: account.id, identifier: 'co_1', percentageDiscount: 0.1, type: 'special' })
    .returning('*');
  const [charge] = await db('merchantCharges')
    .insert({
      merchantAccountId: account.id,
      identifier: 'ch_1',
      amount: 4900,
      fee: 172,
      net: 4728,
      refundAmount: 900,
      userId: buyer.id,
      merchantProductId: merchantProduct.id,
      merchantCustomerId: customer.id,
      metadata: JSON.stringify({ country: 'US' }),
    })
    .returning('*');
  const coupon = await createCoupon(db, {
    code: 'USEDONCE',
    percentageDiscount: 0.1,
    merchantCouponId: merchantCoupon.id,
  });
  const purchase = await createPurchase(db, {
    user: buyer,
    product,
    totalAmount: 4900,
    country: 'US',
    couponId: coupon.id,
  });
  await db('purchases')
    .where({ id: purchase.id })
    .update({ merchantChargeId: charge.id, merchantSessionId: session.id });
  // Its invoice, and the credit note of its partial refund.
  await db.transaction(async (trx) => {
    await issueInvoice(trx, charge.id);
    await issueCreditNote(trx, charge.id, 900);
  });
  // A partial refund by support (the charge's refundAmount above agrees) and a dispute the seller won.
  const support = (await User.query(db).findOne({ email: 'support@example.com' }))!;
  await db('merchantRefunds').insert({
    merchantAccountId: account.id,
    identifier: 're_1',
    merchantChargeId: charge.id,
    amount: 900,
    reasonCode: 'customer-request',
    reason: 'Asked for a partial refund',
    idempotencyKey: `refund-${charge.id}-0-900`,
    requestedById: support.id,
  });
  await db('merchantDisputes').insert({
    merchantAccountId: account.id,
    identifier: 'dp_1',
    merchantChargeId: charge.id,
    amount: 4900,
    reason: 'fraudulent',
    status: 'won',
    closedAt: new Date(),
  });

  // A team purchase of 5 seats with one seat redeemed.
  const teamBuyer = await createUser(db, { email: 'team.lead@example.com' });
  const team = await createPurchase(db, { user: teamBuyer, product, totalAmount: 20825 });
  const teamCoupon = await createCoupon(db, {
    code: null,
    percentageDiscount: 1,
    maxUses: 5,
    restrictedToProductId: product.id,
    bulkPurchaseId: team.id,
  });
  await db('purchases').where({ id: team.id }).update({ bulkCouponId: teamCoupon.id });
  const member = await createUser(db, { email: 'member@example.com' });
  await db('purchases').insert({
    userId: member.id,
    productId: product.id,
    redeemedBulkCouponId: teamCoupon.id,
    totalAmount: 0,
  });
  await db('coupons').where({ id: teamCoupon.id }).update({ usedCount: 1 });

  await db('purchaseUserTransfers').insert({
    purchaseId: purchase.id,
    sourceUserId: buyer.id,
    transferState: 'AVAILABLE',
    expiresAt: new Date(Date.now() + 7 * 86400_000),
  });

  const lesson = await db('contentResources').where({ type: 'lesson' }).first();
  await db('lessonProgress').insert({
    userId: buyer.id,
    lessonId: lesson.id,
    lessonSlug: lesson.fields.slug,
    completedAt: new Date(),
  });
  await db('comments').insert({
    userId: buyer.id,
    text: 'Great lesson!',
    context: JSON.stringify({ resourceId: lesson.id }),
  });
  await db('bookmarks').insert({ userId: buyer.id, resourceId: lesson.id });
  await db('quizAttempts').insert({
    lessonId: lesson.id,
    userId: buyer.id,
    number: 1,
    seed: 7,
    correct: 1,
    total: 2,
    score: 50,
    passPercent: 70,
    passed: false,
    answers: JSON.stringify({ q1: 'a' }),
    results: JSON.stringify([{ questionId: 'q1', correct: true, explanation: null, picked: [] }]),
  });
  await db('userPrefs').insert({ userId: buyer.id, type: 'global', fields: JSON.stringify({ theme: 'dark' }) });

  await db('sessions').insert({
    sessionToken: hashSecret('session-secret'),
    userId: buyer.id,
    expires: new Date(Date.now() + 86400_000),
  });
  await db('deviceAccessTokens').insert({ token: hashSecret('device-secret'), userId: buyer.id, clientId: 'cli' });
  await db('verificationTokens').insert({
    token: hashSecret('verification-secret'),
    identifier: buyer.email,
    expires: new Date(Date.now() + 60_000),
  });
  await db('deviceVerifications').insert({
    deviceCode: hashSecret('device-code-secret'),
    userCode: 'BCDFGHJK',
    clientId: 'cli',
    expires: new Date(Date.now() + 60_000),
  });
  // GitHub's tokens are never stored (the database refuses them); a sign-in email not sent yet keeps its token apart.
  await db('accounts').insert({
    userId: buyer.id,
    type: 'oauth',
    provider: 'github',
    providerAccountId: '42',
    tokenType: 'bearer',
    scope: 'read:user',
  });
  // Through the outbox, so each has its delivery job (never run here) as well.
  const mail = outbox({
    db,
    clock: { now: () => new Date() },
    logger: createLogger('silent'),
    transport: silentTransport,
  });
  await mail.enqueue(db, { to: buyer.email, subject: 'Hello', text: 'Hi', kind: 'test' });
  await mail.enqueue(db, {
    to: buyer.email,
    subject: 'Your sign-in link',
    text: 'https://site.example/login/continue?token=outbox-sign-in-secret',
    kind: 'sign-in',
    secret: 'outbox-sign-in-secret',
  });
  // Someone waiting for the product (emailed once already: the leave link's token is kept only as a hash).
  await db('waitlistProducts').insert({ productId: product.id, open: true, opening: 1 });
  await db('waitlistEntries').insert({
    productId: product.id,
    email: 'waiting@example.com',
    notifiedAt: new Date(),
    notifiedOpening: 1,
    leaveTokenHash: hashSecret('waitlist-leave-secret'),
  });
  // A certificate of completion of the demo's first course.
  const course = await db('contentResources').where({ type: 'course' }).first();
  await db('certificates').insert({
    id: 'C0RSE5D0NE00',
    userId: buyer.id,
    courseId: course.id,
    learnerName: 'Learner',
    courseTitle: course.fields.title,
  });
  await db('auditLogs').insert({
    action: 'update',
    resource: 'products',
    recordId: product.id,
    before: JSON.stringify({ name: 'a' }),
    after: JSON.stringify({ name: 'b' }),
  });

  // An author paid by Stripe Connect, and a payout run's manual payout marked paid (a bank transfer).
  await db('payoutRecipients').insert({ userId: teamBuyer.id, stripeAccountId: 'acct_1Fixture' });
  const [run] = await db('payoutRuns').insert({ earnedBefore: new Date(), startedByEmail: 'system' }).returning('id');
  await db('payouts').insert({
    runId: run.id,
    recipientId: teamBuyer.id,
    currency: 'usd',
    amount: 2500,
    method: 'manual',
    status: 'paid',
    reference: 'BANK-1',
    paidAt: new Date(),
  });
  // A month finance closed long before any of this money, so nothing above is moved by it.
  await db('monthCloses').insert({
    month: '2000-01',
    closedAt: new Date(),
    closedByEmail: 'finance@example.com',
    figures: '[]',
  });

  // A membership's subscription: its trial, then a paid period with its charge.
  const membership = await db('products').where({ slug: 'all-access' }).first('id');
  const membershipPrice = await db('prices').where({ productId: membership.id, status: 'active' }).first('id');
  const [subscription] = await db('subscriptions')
    .insert({
      userId: buyer.id,
      productId: membership.id,
      priceId: membershipPrice.id,
      merchantAccountId: account.id,
      providerIdentifier: 'sub_1',
      status: 'active',
      currentPeriodStart: new Date(Date.now() - 86_400_000),
      currentPeriodEnd: new Date(Date.now() + 29 * 86_400_000),
    })
    .returning('*');
  const [periodCharge] = await db('merchantCharges')
    .insert({
      merchantAccountId: account.id,
      identifier: 'ch_sub_1',
      amount: 2900,
      fee: 114,
      net: 2786,
      userId: buyer.id,
      merchantProductId: merchantProduct.id,
      merchantCustomerId: customer.id,
    })
    .returning('*');
  await db('subscriptionPeriods').insert([
    {
      subscriptionId: subscription.id,
      providerInvoiceIdentifier: 'in_trial_1',
      outcome: 'trial',
      periodStart: new Date(Date.now() - 31 * 86_400_000),
      periodEnd: subscription.currentPeriodStart,
    },
    {
      subscriptionId: subscription.id,
      providerInvoiceIdentifier: 'in_1',
      outcome: 'paid',
      periodStart: subscription.currentPeriodStart,
      periodEnd: subscription.currentPeriodEnd,
      merchantChargeId: periodCharge.id,
    },
  ]);

  return { buyer, product, purchase, coupon, team, teamCoupon, lesson, charge, subscription };
}

/** Every secret-bearing value as it is stored: the plain secrets and their hashes. */
export const PLANTED_SECRET_FORMS = [...PLANTED_SECRETS, ...PLANTED_SECRETS.map(hashSecret)];
