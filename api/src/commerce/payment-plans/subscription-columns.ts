import type { Knex } from 'knex';
import { AppError } from '../../shared/errors';

/**
 * What the learner's list of subscriptions adds for a payment plan's (`s`, joined to its plan as `pp`): its kind, and
 * instalments paid of the plan's.
 */
export const instalmentColumns = (conn: Knex) => [
  conn.raw(`CASE WHEN s.payment_plan_id IS NULL THEN 'membership' ELSE 'payment-plan' END AS kind`),
  conn.raw(
    `CASE WHEN s.payment_plan_id IS NULL THEN NULL ELSE
       (SELECT count(*)::int FROM subscription_periods sp WHERE sp.subscription_id = s.id AND sp.outcome = 'paid')
     END AS "instalmentsPaid"`,
  ),
  'pp.instalments',
];

/** A payment plan is paid to its end: the learner cannot cancel it (docs/domain.md §23). */
export async function refuseToCancelPlan(conn: Knex, userId: string, subscriptionId: string): Promise<void> {
  // Only the learner's own: someone else's plan is not found, as any subscription of theirs is.
  const plan = await conn('subscriptions')
    .where({ id: subscriptionId, userId })
    .whereNotNull('paymentPlanId')
    .first('id');
  if (plan)
    throw new AppError(
      'payment-plan-not-cancelable',
      'A payment plan is paid to its end and cannot be cancelled. Contact our support team if you need help.',
    );
}
