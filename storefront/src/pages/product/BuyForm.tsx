import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { EmailInput, FieldAlert } from '../../ActionFeedback';
import { Link } from 'wouter';
import { ApiError } from '../../api/client';
import { startCheckout, type CheckoutRequest } from '../../api/commerce';
import { useHere } from '../../navigation';
import { loginPath } from '../../redirects';
import { useSession } from '../../session';
import { plural } from '../../../../api/src/shared/words';
import { saveBuyDraft, type DraftBilling } from './buyDraft';
import { CheckoutSubmit } from './CheckoutSubmit';
import { failedTo } from '../../useConfirmation';

interface Props {
  /** The checkout request for what the widget shows, or null when a field needs fixing first. */
  request: Omit<CheckoutRequest, 'email'> | null;
  /** Called when the buyer presses Buy while `request` is null (focus and explain the invalid field). */
  onInvalid: () => void;
  forTeam: boolean;
  /** Seats being bought (a team purchase, or another copy of an owned course); null for one person or while invalid. */
  seats: number | null;
  free: boolean;
  /** Back from the payment page's Cancel: said above the button. */
  canceled?: boolean;
  /** The receipt address typed before leaving for the payment page (this tab remembers it), to fill in again. */
  draftEmail?: string | null;
  /** The button's words when the purchase is more than seats ("Unlock full access for $26.95", "Buy as a gift"). */
  label?: string;
  /** What will be charged, tax included, said on the button ("Buy now · €49.00"); null when free. */
  total?: string | null;
}

/** "Buy now" / "Buy N seats" / "Get it free": starts the provider's checkout; signed-out buyers give an email. */
export function BuyForm({
  request,
  onInvalid,
  forTeam,
  seats,
  free,
  canceled = false,
  draftEmail = null,
  label: asked,
  total = null,
}: Props) {
  const id = useId();
  const { state } = useSession();
  const here = useHere();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [emailError, setEmailError] = useState<string | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const needsEmail = state.status === 'signed-out' || state.status === 'error';
  useEffect(() => {
    if (draftEmail) setEmail(draftEmail);
  }, [draftEmail]);
  const base = free
    ? 'Get it free'
    : seats !== null
      ? `Buy ${plural(seats, 'seat', 'seats')}`
      : forTeam
        ? 'Buy seats'
        : 'Buy now';
  const label = asked ? asked : total ? `${base} · ${total}` : base;

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setError(null);
    setEmailError(null);
    if (!request) return onInvalid();
    const address = email.trim();
    if (needsEmail && !/^[^\s@]+@[^\s@]+$/.test(address)) {
      setEmailError(
        address
          ? 'Enter a valid email address, like name@example.com.'
          : 'Enter your email address: we send the receipt there.',
      );
      emailRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const { url } = await startCheckout(needsEmail ? { ...request, email: address } : request);
      // Cancel at the payment page comes back to this form as it is now.
      saveBuyDraft(request.productId, {
        email: needsEmail ? address : '',
        forTeam,
        quantity: request.quantity ?? 1,
        coupon: request.coupon ?? null,
        ppp: request.ppp === true,
        billing: request.billing ? draftBilling(request.billing) : null,
      });
      window.location.assign(url);
    } catch (caught) {
      setBusy(false);
      if (caught instanceof ApiError && caught.body.errors?.email && needsEmail) {
        setEmailError(`Email ${caught.body.errors.email}.`);
        emailRef.current?.focus();
      } else {
        setError(failedTo('start the checkout')(caught));
      }
    }
  }

  // The same answer whether or not the address owns the course (nobody learns who bought what here): an owner who
  // pays gets a seat to give away, and their receipt says so and offers the refund.
  const emailDescribedBy = emailError ? `${id}-email-error` : `${id}-email-hint`;
  return (
    <form className="stack buy-form" onSubmit={handleSubmit} noValidate aria-busy={busy}>
      {canceled && <CanceledNotice />}
      {needsEmail && (
        <div className="field">
          <label htmlFor={`${id}-email`}>Email for your receipt</label>
          <EmailInput
            ref={emailRef}
            id={`${id}-email`}
            value={email}
            onChange={setEmail}
            invalid={!!emailError}
            describedBy={emailDescribedBy}
          />
          {emailError ? (
            <FieldAlert id={`${id}-email-error`} error={emailError} />
          ) : (
            <p id={`${id}-email-hint`} className="hint">
              Your purchase is kept under this address; sign in with it to start learning.
            </p>
          )}
        </div>
      )}
      <CheckoutSubmit label={label} busy={busy} error={error} className="button-buy" refundPolicy />
      {needsEmail && (
        <p className="hint">
          Own an earlier course or team seats? <Link to={loginPath(here)}>Sign in</Link> and they count toward this
          price.
        </p>
      )}
    </form>
  );
}

const given = (value: unknown) => (typeof value === 'string' ? value : '');

/** The billing details a checkout sent, kept with the form for Cancel to bring back. */
function draftBilling(billing: NonNullable<CheckoutRequest['billing']>): DraftBilling {
  return {
    country: given(billing.country) || null,
    region: given(billing.region) || null,
    postalCode: given(billing.postalCode),
    company: given(billing.company),
    address: given(billing.address),
    vatId: given(billing.vatId),
  };
}

/**
 * Back from the payment page's Cancel. Focused when it appears (the form is ready by then), so the buyer, and a
 * screen reader, start from here: on a phone the form is far below the top of the page.
 */
function CanceledNotice() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div ref={ref} tabIndex={-1} role="status" className="notice notice-info canceled-notice">
      <p>
        <strong>Payment canceled: nothing was charged.</strong> Your choices are kept: change them, or buy whenever you
        are ready.
      </p>
    </div>
  );
}
