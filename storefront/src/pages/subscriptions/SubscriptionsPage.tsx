import { useState } from 'react';
import { Link } from 'wouter';
import { formatMoney } from '../../../../api/src/shared/money';
import { getBilling, listSubscriptions, setCancelAtPeriodEnd, type Subscription } from '../../api/subscriptions';
import { ActionButton, FieldAlert } from '../../ActionFeedback';
import { formatDate } from '../../format';
import { LoadStatus } from '../../LoadStatus';
import { RequireSignIn } from '../../RequireSignIn';
import { useAccountAsync } from '../../useAccountAsync';
import { useAction } from '../../useAction';
import { failedTo } from '../../useConfirmation';
import { useDocumentTitle } from '../../useDocumentTitle';
import { MembershipBilling } from './MembershipBilling';
import { PaymentPlanItem } from './PaymentPlanItem';
import { TeamSeats } from './TeamSeats';

/** /subscriptions: the learner's memberships' subscriptions, each cancelled at its period's end or resumed. */
export function SubscriptionsPage() {
  useDocumentTitle('Subscriptions');
  return <RequireSignIn>{() => <Subscriptions />}</RequireSignIn>;
}

function Subscriptions() {
  const list = useAccountAsync(listSubscriptions);
  return (
    <section>
      <h1>Subscriptions</h1>
      <LoadStatus state={list} retry={list.retry} what="your subscriptions" />
      {list.status === 'ready' && list.data.length === 0 && <p className="empty">You have no subscriptions.</p>}
      {list.status === 'ready' && list.data.length > 0 && (
        <ul className="subscription-list">
          {list.data.map((subscription) =>
            subscription.kind === 'payment-plan' ? (
              <PaymentPlanItem key={subscription.id} plan={subscription} />
            ) : (
              <SubscriptionItem key={subscription.id} initial={subscription} />
            ),
          )}
        </ul>
      )}
    </section>
  );
}

const STATUS: Record<Subscription['status'], string> = {
  trialing: 'Free trial',
  active: 'Active',
  past_due: 'Payment failed',
  canceled: 'Ended',
  lapsed: 'Lapsed',
};

/** One subscription: its status, when its period ends or renews, and the one change it allows now. */
function SubscriptionItem({ initial }: { initial: Subscription }) {
  const [subscription, setSubscription] = useState(initial);
  const action = useAction(failedTo(subscription.cancelAtPeriodEnd ? 'resume the subscription' : 'cancel it'));
  const { status, cancelAtPeriodEnd, currentPeriodEnd } = subscription;
  const live = status === 'trialing' || status === 'active' || status === 'past_due';
  const end = formatDate(currentPeriodEnd);
  const billing = useAccountAsync(() => getBilling(subscription.id), [status, currentPeriodEnd, cancelAtPeriodEnd]);
  // A renewal owed: its amount, not the end of a period already over.
  const owed = status === 'past_due' && billing.status === 'ready' ? billing.data.nextCharge : null;
  const change = (cancel: boolean) =>
    action.run(async () => setSubscription(await setCancelAtPeriodEnd(subscription.id, cancel)));
  // After a switch: its period and price as they are now.
  const reload = async () => {
    const again = (await listSubscriptions()).find((s) => s.id === subscription.id);
    if (again) setSubscription(again);
  };
  return (
    <li className="subscription">
      <h2>
        {subscription.productSlug ? (
          <Link to={`/products/${subscription.productSlug}`}>{subscription.productName}</Link>
        ) : (
          subscription.productName
        )}
      </h2>
      <p>
        <span className="status-label">{STATUS[status]}</span>
        {' · '}
        <span>
          {!live
            ? `Ended on ${end}`
            : status === 'past_due'
              ? `Payment due now${owed ? `: ${formatMoney(owed.amount, owed.currency)}` : ''}`
              : cancelAtPeriodEnd
                ? `Ends on ${end}`
                : `Renews on ${end}`}
        </span>
      </p>
      <MembershipBilling
        key={`${status}-${currentPeriodEnd}-${String(cancelAtPeriodEnd)}`}
        subscription={subscription}
        billing={billing}
        changed={() => void reload()}
      />
      {live && <TeamSeats subscriptionId={subscription.id} canAdd={status !== 'past_due'} />}
      {live &&
        (cancelAtPeriodEnd ? (
          <ActionButton busy={action.busy} busyText="Resuming…" onClick={() => change(false)}>
            Resume
          </ActionButton>
        ) : (
          <ActionButton busy={action.busy} busyText="Cancelling…" onClick={() => change(true)}>
            Cancel at period end
          </ActionButton>
        ))}
      <FieldAlert error={action.error} />
    </li>
  );
}
