import { Link } from 'wouter';
import type { Subscription } from '../../api/subscriptions';
import { formatDate } from '../../format';
import { UpdateCard } from './MembershipBilling';

/**
 * A course bought in instalments (docs/domain.md §23): how many are paid, when the next is due, and what a failed one
 * means. A plan is paid to its end: it has no cancel.
 */
export function PaymentPlanItem({ plan }: { plan: Subscription }) {
  const paid = plan.instalmentsPaid ?? 0;
  const total = plan.instalments ?? paid;
  const done = paid >= total;
  return (
    <li className="subscription payment-plan">
      <h2>
        {plan.productSlug ? <Link to={`/products/${plan.productSlug}`}>{plan.productName}</Link> : plan.productName}
      </h2>
      <p>
        <span className="status-label">{done ? 'Paid in full' : `${paid} of ${total} paid`}</span>
        {!done && plan.status !== 'lapsed' && (
          <>
            {' · '}
            <span>Next payment on {formatDate(plan.currentPeriodEnd)}</span>
          </>
        )}
      </p>
      {plan.status === 'past_due' && (
        <p className="hint">
          Your last instalment failed. Your course stays open for a few days while it is tried again.
        </p>
      )}
      {plan.status === 'lapsed' && (
        <p className="hint">Your course is closed until the missed instalment is paid; your progress is kept.</p>
      )}
      {(plan.status === 'past_due' || plan.status === 'lapsed') && <UpdateCard subscriptionId={plan.id} prominent />}
    </li>
  );
}
