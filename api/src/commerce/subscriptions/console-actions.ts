import type { Knex } from 'knex';
import { recordAudit, type Actor } from '../../audit/record';
import type { Clock } from '../../clock';
import { refundEmail } from '../../mail/templates';
import { AppError } from '../../shared/errors';
import { formatMoney } from '../../shared/money';
import { SUBSCRIPTION_STATUS_NOW } from '../../shared/subscription-status';
import type { LifecycleDeps } from '../purchases/lifecycle-deps';
import { completeRefund, type RefundEmail } from '../purchases/refund-completion';
import { refundReasonText } from '../purchases/refund-reason-text';
import { reserveChargeRefund } from '../purchases/refunds';
import type { PeriodRefundBody, SubscriptionActionResult, SubscriptionCancelBody } from './console.schemas';
import type { z } from 'zod';

type Deps = Pick<LifecycleDeps, 'db' | 'outbox' | 'provider'> & { clock: Clock };
type Conn = Knex | Knex.Transaction;

interface Held {
  id: string;
  userId: string;
  productId: string;
  providerIdentifier: string;
  status: string;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date;
}

/** The subscription as it stands at `now` (its status read with the time), or a 404. */
async function subscriptionAt(conn: Conn, id: string, now: Date): Promise<Held> {
  const row = (await conn('subscriptions as s')
    .where('s.id', id)
    .first(
      's.id',
      's.userId',
      's.productId',
      's.providerIdentifier',
      's.cancelAtPeriodEnd',
      's.currentPeriodEnd',
      conn.raw(`${SUBSCRIPTION_STATUS_NOW} AS status`, [now, now]),
    )) as Held | undefined;
  if (!row) throw new AppError('not-found', 'No such subscription.');
  return row;
}

const resultOf = (s: Held): SubscriptionActionResult => ({
  id: s.id,
  status: s.status,
  cancelAtPeriodEnd: s.cancelAtPeriodEnd,
  currentPeriodEnd: new Date(s.currentPeriodEnd).toISOString(),
});

/**
 * Staff's actions on a membership's subscription (docs/domain.md §22): end it now or at its period's end, and refund
 * one paid period (that period's charge only, through the refund machinery every charge uses), each with a reason in
 * the audit log. The provider is told first: what it bills decides.
 */
export function subscriptionConsole(deps: Deps) {
  const { db, clock, provider } = deps;

  async function cancel(
    id: string,
    { when, reason }: z.output<typeof SubscriptionCancelBody>,
    actor: Actor,
    requestId: string | null,
  ): Promise<SubscriptionActionResult> {
    const now = clock.now();
    const before = await subscriptionAt(db, id, now);
    if (!['trialing', 'active', 'past_due'].includes(before.status))
      throw new AppError('subscription-not-renewable', 'This subscription has ended.');
    const billing = provider.subscriptions;
    if (!billing || (when === 'now' && !billing.cancelNow))
      throw new AppError('memberships-not-available', 'The payment provider cannot end this subscription now.');
    if (when === 'now') await billing.cancelNow!(before.providerIdentifier);
    else if (!before.cancelAtPeriodEnd) await billing.cancelAtPeriodEnd(before.providerIdentifier, true);
    return db.transaction(async (trx) => {
      await trx('subscriptions').where({ id }).forUpdate().first('id');
      // Conditional, as the learner's cancel is: a period that ended meanwhile is not touched.
      if (when === 'now')
        await trx('subscriptions')
          .where({ id })
          .whereIn('status', ['trialing', 'active', 'past_due'])
          .update({ status: 'canceled', graceUntil: null, updatedAt: now });
      else
        await trx('subscriptions')
          .where({ id })
          .where('currentPeriodEnd', '>', now)
          .update({ cancelAtPeriodEnd: true, updatedAt: now });
      const after = await subscriptionAt(trx, id, now);
      await recordAudit(trx, {
        actor,
        action: when === 'now' ? 'subscription.canceled' : 'subscription.cancel-at-period-end',
        resource: 'subscriptions',
        recordId: id,
        before: { status: before.status, cancelAtPeriodEnd: before.cancelAtPeriodEnd },
        after: { status: after.status, cancelAtPeriodEnd: after.cancelAtPeriodEnd, reason },
        requestId,
      });
      return resultOf(after);
    });
  }

  async function refundPeriod(
    periodId: string,
    input: z.output<typeof PeriodRefundBody>,
    actor: Actor,
    requestId: string | null,
  ): Promise<SubscriptionActionResult> {
    const period = await db('subscriptionPeriods').where({ id: periodId }).first();
    if (!period) throw new AppError('not-found', 'No such subscription period.');
    if (!period.merchantChargeId)
      throw new AppError('refund-not-possible', 'Nothing was paid for this period (a trial or a failed renewal).');
    const reserved = await db.transaction((trx) =>
      reserveChargeRefund(trx, provider.label, period.merchantChargeId, input, actor, 'period'),
    );
    const reason = refundReasonText(input.reasonCode, input.reason);
    const emailOf: RefundEmail = async (trx, charge, result) => {
      const buyer = await trx('users').where({ id: charge.userId }).first('email');
      const product = await trx('subscriptions as s')
        .join('products as p', 'p.id', 's.productId')
        .where('s.id', period.subscriptionId)
        .first('p.name');
      return refundEmail(buyer.email, product.name, formatMoney(reserved.amount, charge.currency), result.full);
    };
    const outcome = await completeRefund(deps, { ...reserved, reason }, emailOf, actor, requestId);
    await recordAudit(db, {
      actor,
      action: 'subscription.period-refunded',
      resource: 'subscriptions',
      recordId: period.subscriptionId,
      after: {
        periodId,
        amount: reserved.amount,
        refundAmount: outcome.refundAmount,
        reason,
        reasonCode: input.reasonCode,
        ...(outcome.pending ? { pending: true } : {}),
      },
      requestId,
    });
    const refund = { amount: reserved.amount, ...outcome };
    if (input.cancel) {
      const held = await subscriptionAt(db, period.subscriptionId, clock.now());
      if (['trialing', 'active', 'past_due'].includes(held.status))
        return { ...(await cancel(period.subscriptionId, { when: 'now', reason }, actor, requestId)), refund };
    }
    return { ...resultOf(await subscriptionAt(db, period.subscriptionId, clock.now())), refund };
  }

  return { cancel, refundPeriod };
}

export type SubscriptionConsole = ReturnType<typeof subscriptionConsole>;
