import { useRef, useState } from 'react';
import { formatMoney } from '../../../../api/src/shared/money';
import { isApiError } from '../../api/client';
import { getBilling, paymentMethodUrl, switchInterval, type Billing, type Subscription } from '../../api/subscriptions';
import { ActionButton, BusyStatus, FieldAlert } from '../../ActionFeedback';
import { formatDate } from '../../format';
import { LoadStatus } from '../../LoadStatus';
import type { AsyncState } from '../../useAsync';
import { useAction } from '../../useAction';
import { failedTo } from '../../useConfirmation';
import { WaitingSwitch } from './WaitingSwitch';

const EVERY = { month: 'month', year: 'year' } as const;
const LY = { month: 'monthly', year: 'yearly' } as const;

/**
 * A membership's billing on the Billing page (docs/domain.md §22): its plan and next charge, a banner while a
 * payment is owed with the way to fix it (update the card), and a switch to the other interval, its prorated amount
 * shown before it is confirmed.
 */
export function MembershipBilling({
  subscription,
  billing,
  changed,
}: {
  subscription: Subscription;
  billing: AsyncState<Billing> & { retry: () => void };
  changed: () => void;
}) {
  const owed = subscription.status === 'past_due' || subscription.status === 'lapsed';
  return (
    <div className="membership-billing">
      {owed && <PastDueBanner subscription={subscription} />}
      <LoadStatus state={billing} retry={billing.retry} what="the billing" />
      {billing.status === 'ready' && (
        <BillingDetails
          key={`${billing.data.interval}-${String(billing.data.nextCharge?.on)}`}
          subscriptionId={subscription.id}
          initial={billing.data}
          pastDue={owed}
          changed={changed}
        />
      )}
      {!owed && subscription.status !== 'canceled' && <UpdateCard subscriptionId={subscription.id} />}
    </div>
  );
}

function PastDueBanner({ subscription }: { subscription: Subscription }) {
  const lapsed = subscription.status === 'lapsed';
  return (
    <div className="notice notice-error past-due-banner" role="region" aria-label="Payment failed">
      <p>
        <strong>{lapsed ? 'Your membership has lapsed.' : 'Your last payment failed.'}</strong>{' '}
        {lapsed
          ? 'Your courses are closed until a payment succeeds; your progress, bookmarks and certificates are kept.'
          : 'Your courses stay open for a few days while we try again.'}{' '}
        Update your card and the payment is taken again at once.
      </p>
      <UpdateCard subscriptionId={subscription.id} prominent />
    </div>
  );
}

/** Goes to the provider's page where the card is replaced; it comes back here. */
export function UpdateCard({ subscriptionId, prominent = false }: { subscriptionId: string; prominent?: boolean }) {
  const action = useAction(failedTo('open the card page'));
  return (
    <>
      <ActionButton
        busy={action.busy}
        busyText="Opening the card page…"
        className={prominent ? 'button-buy' : 'button-quiet'}
        onClick={() => action.run(async () => window.location.assign(await paymentMethodUrl(subscriptionId)))}
      >
        Update card
      </ActionButton>
      <FieldAlert error={action.error} />
    </>
  );
}

/** A switch whose price moved since it was shown (a renewal, a coupon's last period) is shown again, priced anew. */
const QUOTE_CHANGED = 'What the switch costs has changed: check the amount below and confirm again.';

function BillingDetails({
  subscriptionId,
  initial,
  pastDue,
  changed,
}: {
  subscriptionId: string;
  initial: Billing;
  pastDue: boolean;
  changed: () => void;
}) {
  const [billing, setBilling] = useState(initial);
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const action = useAction((caught) =>
    isApiError(caught, 'quote-changed') ? QUOTE_CHANGED : failedTo('switch')(caught),
  );
  const { interval, nextCharge } = billing;
  const offer = billing.switch;
  const confirm = () =>
    action.run(async () => {
      try {
        setBilling(await switchInterval(subscriptionId, offer!.interval, offer!.dueNow));
      } catch (caught) {
        // Priced again: the confirmation shows what would be charged now, and the learner confirms that.
        if (isApiError(caught, 'quote-changed')) setBilling(await getBilling(subscriptionId));
        throw caught;
      }
      setAsking(false);
      changed();
    });
  return (
    <>
      {interval && <p>Plan: billed {LY[interval]}</p>}
      {/* While a payment is owed, the status line says what is due now: no date of a period already over. */}
      {!pastDue && (
        <p>
          {nextCharge
            ? `Next charge: ${formatMoney(nextCharge.amount, nextCharge.currency)} on ${formatDate(nextCharge.on)}`
            : 'No further charges.'}
        </p>
      )}
      <WaitingSwitch
        subscriptionId={subscriptionId}
        billing={billing}
        undone={(next) => {
          setBilling(next);
          changed();
        }}
      />
      {offer && !asking && (
        <div className="actions">
          <button
            type="button"
            className="button-quiet"
            onClick={() => {
              setAsking(true);
              requestAnimationFrame(() => confirmRef.current?.focus());
            }}
          >
            Switch to {LY[offer.interval]}
          </button>
        </div>
      )}
      {offer && asking && (
        <div className="switch-confirm" role="group" aria-label={`Switch to ${LY[offer.interval]}`}>
          <p>
            {formatMoney(offer.amount, offer.currency)} each {EVERY[offer.interval]}.{' '}
            {offer.startsNow
              ? `You are charged ${formatMoney(offer.dueNow, offer.currency)} now (${formatMoney(offer.credit, offer.currency)} unused of this period credited), and the ${EVERY[offer.interval]} starts today.`
              : `Nothing is charged now: the ${LY[offer.interval]} price applies from the end of the period you paid for.`}
          </p>
          {offer.startsNow && <SwitchCharge offer={offer} />}
          <div className="actions">
            <button ref={confirmRef} type="button" className="button-buy" onClick={confirm} disabled={action.busy}>
              Confirm the switch
            </button>
            <button type="button" className="button-quiet" onClick={() => setAsking(false)} disabled={action.busy}>
              Keep {LY[interval ?? 'month']}
            </button>
            <BusyStatus busy={action.busy} text="Switching…" />
          </div>
        </div>
      )}
      <FieldAlert error={action.error} />
    </>
  );
}

/** What the switch charges now, line by line as its invoice will: the coupon taken off, the tax, the total. */
function SwitchCharge({ offer }: { offer: NonNullable<Billing['switch']> }) {
  const money = (amount: number) => formatMoney(amount, offer.currency);
  return (
    <dl className="switch-charge">
      {offer.discount > 0 && (
        <>
          <dt>Coupon</dt>
          <dd>−{money(offer.discount)}</dd>
        </>
      )}
      {offer.tax && (
        <>
          <dt>{offer.tax.inclusive ? 'Tax included' : 'Tax'}</dt>
          <dd>{money(offer.tax.amount)}</dd>
        </>
      )}
      <dt>Due now</dt>
      <dd>{money(offer.dueNow)}</dd>
    </dl>
  );
}
