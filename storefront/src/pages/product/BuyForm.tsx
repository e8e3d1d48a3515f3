import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { ApiError } from '../../api/client';
import { startCheckout, type CheckoutRequest } from '../../api/commerce';
import { useHere } from '../../navigation';
import { loginPath } from '../../redirects';
import { useSession } from '../../session';
import { plural } from './pricingText';
import { CheckoutSubmit } from './CheckoutSubmit';

interface Props {
  /** The checkout request for what the widget shows, or null when a field needs fixing first. */
  request: Omit<CheckoutRequest, 'email'> | null;
  /** Called when the buyer presses Buy while `request` is null (focus and explain the invalid field). */
  onInvalid: () => void;
  forTeam: boolean;
  /** Seats being bought (a team purchase, or another copy of an owned course); null for one person or while invalid. */
  seats: number | null;
  free: boolean;
}

/** "Buy now" / "Buy N seats" / "Get it free": starts the provider's checkout; signed-out buyers give an email. */
export function BuyForm({ request, onInvalid, forTeam, seats, free }: Props) {
  const id = useId();
  const { state } = useSession();
  const here = useHere();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [emailError, setEmailError] = useState<string | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const needsEmail = state.status === 'signed-out' || state.status === 'error';
  const label = free ? 'Get it free' : seats !== null ? `Buy ${plural(seats, 'seat', 'seats')}` : forTeam ? 'Buy seats' : 'Buy now';

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setError(null);
    setEmailError(null);
    if (!request) return onInvalid();
    const address = email.trim();
    if (needsEmail && !/^[^\s@]+@[^\s@]+$/.test(address)) {
      setEmailError(address ? 'Enter a valid email address, like name@example.com.' : 'Enter your email address: we send the receipt there.');
      emailRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const { url } = await startCheckout(needsEmail ? { ...request, email: address } : request);
      window.location.assign(url);
    } catch (caught) {
      setBusy(false);
      if (caught instanceof ApiError && caught.body.errors?.email && needsEmail) {
        setEmailError(`Email ${caught.body.errors.email}.`);
        emailRef.current?.focus();
      } else {
        setError(`We could not start the checkout: ${caught instanceof Error ? caught.message : 'something went wrong. Please try again.'}`);
      }
    }
  }

  return (
    <form className="stack buy-form" onSubmit={handleSubmit} noValidate aria-busy={busy}>
      {needsEmail && (
        <div className="field">
          <label htmlFor={`${id}-email`}>Email for your receipt</label>
          <input
            ref={emailRef}
            id={`${id}-email`}
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-invalid={emailError ? true : undefined}
            aria-describedby={emailError ? `${id}-email-error` : `${id}-email-hint`}
          />
          {emailError ? (
            <p id={`${id}-email-error`} role="alert" className="field-error">
              {emailError}
            </p>
          ) : (
            <p id={`${id}-email-hint`} className="hint">
              Your purchase is kept under this address; sign in with it to start learning.
            </p>
          )}
        </div>
      )}
      <CheckoutSubmit label={label} busy={busy} error={error} className="button-buy" />
      {needsEmail && (
        <p className="hint">
          Own an earlier course or team seats? <Link to={loginPath(here)}>Sign in</Link> and
          they count toward this price.
        </p>
      )}
    </form>
  );
}
