import type { Knex } from 'knex';
import type { SubscriptionEvent } from '../../payments/provider';

/**
 * A payment plan's side of a recorded subscription event (docs/domain.md §23), in its transaction, once per provider
 * invoice: the subscription names its plan; a paid instalment opens (first) or adds to the course's purchase, and the
 * last one marks it paid in full, the subscription ending with its period. A membership's event changes nothing here.
 */
export async function recordInstalment(
  trx: Knex.Transaction,
  subscriptionId: string,
  event: SubscriptionEvent,
  now: Date,
): Promise<void> {
  const planId = event.metadata.paymentPlanId;
  if (!planId) return;
  await trx('subscriptions').where({ id: subscriptionId }).whereNull('paymentPlanId').update({ paymentPlanId: planId });
  const charge = event.invoice.charge;
  if (event.invoice.outcome !== 'paid' || !charge) return;
  const plan = (await trx('paymentPlans').where({ id: planId }).first('instalments')) as { instalments: number };
  const [{ paid }] = (await trx('subscriptionPeriods')
    .where({ subscriptionId, outcome: 'paid' })
    .count({ paid: '*' })) as [{ paid: string | number }];
  const full = Number(paid) >= plan.instalments;
  // At the regional price the course is Restricted to its country, as a one-time purchase at it is (§5.2).
  const country = event.metadata.pppCountry ?? null;
  // In any order: whichever instalment comes first opens the purchase; each adds what it paid.
  await trx.raw(
    `INSERT INTO purchases (user_id, product_id, status, total_amount, currency, payment_plan_subscription_id,
                            paid_in_full, paid_in_full_at, country, coupon_id)
     VALUES (:userId, :productId, :status, :amount, :currency, :subscriptionId, :full, :fullAt, :country, :couponId)
     ON CONFLICT (payment_plan_subscription_id) DO UPDATE
       SET total_amount = purchases.total_amount + excluded.total_amount,
           paid_in_full = purchases.paid_in_full OR excluded.paid_in_full,
           paid_in_full_at = coalesce(purchases.paid_in_full_at, excluded.paid_in_full_at),
           updated_at = :now`,
    {
      userId: event.metadata.userId!,
      productId: event.metadata.productId!,
      status: country ? 'Restricted' : 'Valid',
      country,
      couponId: event.metadata.couponId ?? null,
      amount: charge.amount,
      currency: event.invoice.currency,
      subscriptionId,
      full,
      fullAt: full ? now : null,
      now,
    },
  );
  // Paid in full: nothing more is billed, and the purchase opens the course from now on.
  if (full)
    await trx('subscriptions').where({ id: subscriptionId }).update({ cancelAtPeriodEnd: true, updatedAt: now });
}
