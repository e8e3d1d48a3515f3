import { useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { formatMoney } from '../../../../api/src/shared/money';
import { plural } from '../../../../api/src/shared/words';
import type { StoreProductPage } from '../../api/catalog';
import { isApiError } from '../../api/client';
import { quoteSubscribe, subscribe } from '../../api/subscriptions';
import { BusyStatus, FieldAlert } from '../../ActionFeedback';
import { useHere } from '../../navigation';
import { loginPath } from '../../redirects';
import { useSession } from '../../session';
import { useAction } from '../../useAction';
import { SeatsField } from './SeatsField';

type Terms = NonNullable<StoreProductPage['membership']>;
type Offer = Terms['prices'][number];

/** Monthly or yearly, where the membership offers both: the yearly one says what it saves over twelve months. */
function IntervalChoice({
  offers,
  chosen,
  choose,
}: {
  offers: Offer[];
  chosen: 'month' | 'year';
  choose: (interval: 'month' | 'year') => void;
}) {
  const monthly = offers.find((o) => o.interval === 'month');
  return (
    <fieldset className="interval-choice">
      <legend>Billing</legend>
      {offers.map((offer) => {
        const saving = monthly && offer.interval === 'year' ? monthly.unitAmount * 12 - offer.unitAmount : 0;
        return (
          <label key={offer.interval}>
            <input
              type="radio"
              name="interval"
              value={offer.interval}
              checked={chosen === offer.interval}
              onChange={() => choose(offer.interval)}
            />{' '}
            {offer.interval === 'month' ? 'Monthly' : 'Yearly'}, {formatMoney(offer.unitAmount, offer.currency)} a{' '}
            {offer.interval}
            {saving > 0 && <span className="saving"> (save {formatMoney(saving, offer.currency)})</span>}
          </label>
        );
      })}
    </fieldset>
  );
}

/**
 * A membership's buy box (docs/domain.md §22): its price each month or year, any free trial, and Subscribe, which
 * goes to the provider's page to subscribe. A membership is never bought once, so no quote is asked.
 */
export function MembershipBuyBox({ product, terms }: { product: StoreProductPage; terms: Terms }) {
  const { state, refresh } = useSession();
  const [, navigate] = useLocation();
  const here = useHere();
  const id = useId();
  const [seatsText, setSeatsText] = useState('1');
  const [coupon, setCoupon] = useState('');
  const [couponError, setCouponError] = useState<string | null>(null);
  const [couponNote, setCouponNote] = useState<string | null>(null);
  const seats = seatCount(seatsText);
  const action = useAction((caught) =>
    isApiError(caught, 'unauthenticated') || isCouponRefusal(caught)
      ? null
      : caught instanceof Error
        ? caught.message
        : 'Please try again.',
  );
  const offers = terms.prices ?? [];
  const [chosen, choose] = useState<'month' | 'year'>(terms.interval);
  const { price: shown } = product;
  const offer = offers.find((p) => p.interval === chosen);
  const price = offer ?? (shown && { ...shown, interval: terms.interval });
  if (!price) return null;
  const each = formatMoney(price.unitAmount, price.currency);
  const interval = price.interval;
  const seatsError = seats === null ? 'Enter a whole number of seats from 1 to 100.' : null;

  async function handleSubscribe() {
    if (action.busy || seats === null) return;
    setCouponError(null);
    if (state.status !== 'signed-in') {
      navigate(loginPath(here));
      return;
    }
    await action.run(async () => {
      try {
        const choice = { interval: offers.length > 1 ? chosen : undefined, quantity: seats, coupon: coupon.trim() };
        window.location.assign(await subscribe(product.id, choice));
      } catch (caught) {
        // A refused code is said under its field, in the coupon's words.
        if (isCouponRefusal(caught)) setCouponError(caught instanceof Error ? caught.message : 'Check the code.');
        // The session ended meanwhile: signing in again comes back here.
        if (isApiError(caught, 'unauthenticated')) {
          refresh();
          navigate(loginPath(here));
        }
        throw caught;
      }
    });
  }

  /** Prices the code for the chosen seats and interval: its price each period and for how long, or why not. */
  async function handleApply() {
    const code = coupon.trim();
    setCouponError(null);
    setCouponNote(null);
    if (!code) return setCouponError('Enter a coupon code.');
    if (seats === null) return;
    try {
      const priced = await quoteSubscribe(product.id, {
        interval: offers.length > 1 ? chosen : undefined,
        quantity: seats,
        coupon: code,
      });
      const { coupon: applied, currency, interval: every } = priced;
      if (!applied) return setCouponNote(`Coupon ${code.toUpperCase()} is valid, but another discount saves you more.`);
      const now = formatMoney(applied.amount, currency);
      const full = formatMoney(priced.amount, currency);
      setCouponNote(
        applied.periods === null
          ? `Coupon ${applied.code.toUpperCase()} applied: ${now} a ${every} (${applied.percent}% off) for as long as you subscribe.`
          : `Coupon ${applied.code.toUpperCase()} applied: ${now} a ${every} (${applied.percent}% off) for the first ${plural(applied.periods, every)}, then ${full}.`,
      );
    } catch (caught) {
      setCouponError(caught instanceof Error ? caught.message : 'Please try again.');
    }
  }

  const signedOut = state.status === 'signed-out';
  return (
    <div className="pricing-widget membership-buy-box">
      {offers.length > 1 && <IntervalChoice offers={offers} chosen={chosen} choose={choose} />}
      <p className="price">
        {each} <span className="price-interval">/ {interval}</span>
      </p>
      <p className="hint">
        {terms.trialDays > 0
          ? `Free for ${plural(terms.trialDays, 'day')}, then ${each} a ${interval}. `
          : `${each} now, then each ${interval}. `}
        Renews until you cancel; after cancelling, your access lasts until the end of the period you paid for.
      </p>
      <SeatsField
        label="Seats"
        id={id}
        max={100}
        value={seatsText}
        onChange={setSeatsText}
        onBlur={() => undefined}
        error={seatsError}
        hintId={`${id}-seats-hint`}
        liveHint
        hint={
          seats !== null && seats > 1
            ? `${each} × ${seats} seats = ${formatMoney(price.unitAmount * seats, price.currency)} a ${interval}. You hold one seat and share an invite link for the others.`
            : 'One seat is yours. For a team, choose more: you share an invite link for the others.'
        }
      />
      <div className="field">
        <label htmlFor={`${id}-coupon`}>Coupon code</label>
        <input
          id={`${id}-coupon`}
          name="coupon"
          value={coupon}
          onChange={(event) => {
            setCoupon(event.target.value);
            setCouponError(null);
            setCouponNote(null);
          }}
          maxLength={64}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-invalid={couponError ? true : undefined}
          aria-describedby={couponError ? `${id}-coupon-error` : `${id}-coupon-hint`}
        />
        {state.status === 'signed-in' && (
          <button type="button" className="button-quiet" onClick={() => void handleApply()}>
            Apply
          </button>
        )}
        {couponError ? (
          <FieldAlert id={`${id}-coupon-error`} error={couponError} />
        ) : (
          <p id={`${id}-coupon-hint`} role="status" className="hint">
            {couponNote ?? 'Optional. Apply it to see its price and for how many periods it lasts.'}
          </p>
        )}
      </div>
      <div className="actions">
        <button type="button" className="button-buy" onClick={handleSubscribe} aria-disabled={action.busy || undefined}>
          Subscribe
        </button>
        <BusyStatus busy={action.busy} text="Opening the subscription page…" />
      </div>
      {signedOut && <p className="hint">You sign in first, then subscribe.</p>}
      {action.error && (
        <p role="alert" className="notice notice-error">
          {action.error}
          {state.status === 'signed-in' && state.hasSubscriptions && (
            <>
              {' '}
              <Link to="/subscriptions">Your subscriptions</Link>
            </>
          )}
        </p>
      )}
    </div>
  );
}

/** The seats typed, when they are a whole number from 1 to 100 (a membership's most). */
function seatCount(text: string): number | null {
  const n = Number(text.trim());
  return Number.isInteger(n) && n >= 1 && n <= 100 ? n : null;
}

/** A refusal of the coupon code itself (no such code, expired, used up, not for this membership, …). */
const isCouponRefusal = (caught: unknown) =>
  isApiError(caught) && (caught.code.startsWith('coupon-') || caught.body.errors?.coupon !== undefined);
