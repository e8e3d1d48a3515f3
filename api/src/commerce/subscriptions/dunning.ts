import type { Knex } from 'knex';
import { timeZoneOf } from '../../identity/profile/prefs';
import type { JobQueue } from '../../jobs/queue';
import type { SubscriptionDeps as DunningDeps } from './deps';
import { membershipLapsedEmail, renewalFailedEmail } from './dunning-emails';
import { nextChargeAmount } from './next-charge';
import { recordPeriodEnds } from './period-ends';
import { DAY_MS } from '../../shared/durations';

/** The sweep that retries failed renewals when due and records lapses and period ends, every minute across replicas. */
export const SUBSCRIPTION_DUNNING = 'subscription-dunning';

/** Subscriptions one sweep retries at most; the rest wait for the next minute. */
const RETRIES_PER_SWEEP = 50;

/** Where a learner fixes their card: the storefront's Billing page. */
export const billingUrl = (publicUrl: string) => new URL('/subscriptions', publicUrl).toString();

interface FailingSubscription {
  id: string;
  status: string;
  graceUntil: Date | null;
  retryCount: number;
  nextRetryAt: Date | null;
  userId: string;
  email: string;
  membership: string;
  amount: number;
  currency: string;
  paymentPlanId: string | null;
  quantity: number | null;
  couponId: string | null;
  pppBp: number | null;
  taxCountry: string | null;
  taxRegion: string | null;
  taxVatId: string | null;
}

/**
 * After a failed renewal was recorded (in its transaction): the learner is emailed the amount, when access ends and
 * where to fix the card, and the first failure starts the retries' schedule (SUBSCRIPTION_RETRY_DAYS), when the
 * provider leaves retries to us. A failure that left the subscription in force or ended (a late one) does nothing.
 */
export async function afterFailedRenewal(
  trx: Knex.Transaction,
  { clock, config, provider, outbox }: DunningDeps,
  subscriptionId: string,
): Promise<void> {
  const sub = (await trx('subscriptions as s')
    .join('users as u', 'u.id', 's.userId')
    .join('products as p', 'p.id', 's.productId')
    .join('prices as pr', 'pr.id', 's.priceId')
    .leftJoin('paymentPlans as pp', 'pp.id', 's.paymentPlanId')
    .where('s.id', subscriptionId)
    .first(
      's.id',
      's.status',
      's.graceUntil',
      's.retryCount',
      's.nextRetryAt',
      's.paymentPlanId',
      's.quantity',
      's.couponId',
      's.pppBp',
      's.taxCountry',
      's.taxRegion',
      's.taxVatId',
      's.userId',
      'u.email',
      'p.name as membership',
      // A payment plan's instalment, else the membership's price for its seats.
      trx.raw('coalesce(pp.instalment_amount, pr.unit_amount * coalesce(s.quantity, 1))::int AS amount'),
      trx.raw('coalesce(pp.currency, pr.currency) AS currency'),
    )) as FailingSubscription;
  if (sub.status !== 'past_due') return;
  const days = config.SUBSCRIPTION_RETRY_DAYS;
  if (sub.retryCount === 0 && !sub.nextRetryAt && days.length && provider.subscriptions?.retryFailedInvoice)
    await trx('subscriptions')
      .where({ id: sub.id })
      .update({ nextRetryAt: new Date(clock.now().getTime() + days[0]! * DAY_MS) });
  await outbox.enqueue(
    trx,
    renewalFailedEmail(sub.email, {
      membership: sub.membership,
      kind: sub.paymentPlanId ? 'payment plan' : 'membership',
      // What the failed period is billed: a membership's at its regional price, less its coupon, with tax.
      amount: sub.paymentPlanId ? sub.amount : await nextChargeAmount(trx, sub, sub.amount, sub.currency),
      currency: sub.currency,
      accessUntil: sub.graceUntil!,
      timeZone: await timeZoneOf(trx, sub.userId),
      billingUrl: billingUrl(config.publicUrl),
    }),
  );
}

/**
 * Claims the retries due now, each moved on to its next time in the schedule (none after the last) by the statement
 * that claims it, so a replica sweeping at the same time skips it: each retry is asked of the provider once.
 */
async function claimRetries({ db, clock, config }: DunningDeps) {
  const days = config.SUBSCRIPTION_RETRY_DAYS;
  return db.transaction(async (trx) => {
    const due = (await trx('subscriptions')
      .where({ status: 'past_due' })
      .where('nextRetryAt', '<=', clock.now())
      .orderBy('nextRetryAt')
      .limit(RETRIES_PER_SWEEP)
      .forUpdate()
      .skipLocked()
      .select('id', 'providerIdentifier', 'retryCount', 'nextRetryAt')) as Array<{
      id: string;
      providerIdentifier: string;
      retryCount: number;
      nextRetryAt: Date;
    }>;
    for (const sub of due) {
      const made = sub.retryCount + 1;
      const gap = days[made] !== undefined ? (days[made]! - days[made - 1]!) * DAY_MS : null;
      await trx('subscriptions')
        .where({ id: sub.id })
        .update({
          retryCount: made,
          nextRetryAt: gap === null ? null : new Date(new Date(sub.nextRetryAt).getTime() + gap),
        });
    }
    return due;
  });
}

/**
 * Records every past-due subscription whose grace has ended as lapsed, and emails each learner once: the statement
 * that changes the status is the one claim, so a replica sweeping at the same time finds nothing left.
 */
async function recordLapses({ db, clock, config, outbox }: DunningDeps): Promise<number> {
  const lapsed = await db.transaction(async (trx) => {
    const rows = (await trx('subscriptions')
      .where({ status: 'past_due' })
      .where('graceUntil', '<=', clock.now())
      .update({ status: 'lapsed', graceUntil: null, nextRetryAt: null, updatedAt: clock.now() })
      .returning(['id', 'userId', 'productId', 'paymentPlanId'])) as Array<{
      id: string;
      userId: string;
      productId: string;
      paymentPlanId: string | null;
    }>;
    for (const row of rows) {
      const who = (await trx('users').where({ id: row.userId }).first('email')) as { email: string };
      const product = (await trx('products').where({ id: row.productId }).first('name')) as { name: string };
      await outbox.enqueue(
        trx,
        membershipLapsedEmail(who.email, {
          membership: product.name,
          kind: row.paymentPlanId ? 'payment plan' : 'membership',
          billingUrl: billingUrl(config.publicUrl),
        }),
      );
    }
    return rows.length;
  });
  if (lapsed) outbox.flushInBackground();
  return lapsed;
}

/**
 * One dunning sweep (docs/domain.md §22): the failed renewals due for a retry are tried again at the provider (its
 * event records the outcome, as any renewal's), then the subscriptions past their grace lapse, and those set to end
 * at their period's end are recorded ended once it is over.
 */
export async function sweepDunning(deps: DunningDeps): Promise<{ retried: number; lapsed: number; ended: number }> {
  const billing = deps.provider.subscriptions;
  let retried = 0;
  if (billing?.retryFailedInvoice)
    for (const sub of await claimRetries(deps)) {
      // One provider's failure does not hold up the others; that retry is not made again (the next one is).
      await billing.retryFailedInvoice(sub.providerIdentifier).then(
        () => (retried += 1),
        (error: unknown) => deps.logger.warn({ err: error, subscriptionId: sub.id }, 'retrying a renewal failed'),
      );
    }
  return { retried, lapsed: await recordLapses(deps), ended: await recordPeriodEnds(deps) };
}

/** The sweep as a job, every minute: one replica runs each minute's. */
export function defineDunningJobs(jobs: JobQueue, sweep: () => Promise<unknown>): void {
  jobs.define({
    name: SUBSCRIPTION_DUNNING,
    cron: '* * * * *',
    retryLimit: 1,
    retryDelaySeconds: 10,
    expireInSeconds: 5 * 60,
    run: async () => void (await sweep()),
  });
}
