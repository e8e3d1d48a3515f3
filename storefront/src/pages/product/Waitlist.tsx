import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { BusyStatus, EmailInput, ErrorOrHint } from '../../ActionFeedback';
import type { SaleBlocker, StoreProduct } from '../../api/catalog';
import { ApiError, isApiError } from '../../api/client';
import { joinWaitlist, type JoinedWaitlist } from '../../api/waitlist';
import { formatDateTimeWithZone } from '../../format';
import { useSession } from '../../session';
import { failureText } from '../../useConfirmation';
import { blockedLabel } from '../Availability';
import { useReaderClock } from '../../readerClock';

/** What opening means for each state, as the waitlist promises it. */
const WHEN: Record<SaleBlocker, string> = {
  'sold-out': 'when seats open up',
  'not-open': 'when enrollment opens',
  closed: 'if enrollment opens again',
  'not-on-sale': 'when it goes on sale',
};

/**
 * In place of the price and the Buy button when a course cannot be bought: what state it is in, and a waitlist to be
 * emailed once when it opens. Nothing here offers a price, a coupon or seats.
 */
export function WaitlistPanel({ product, blocker }: { product: StoreProduct; blocker: SaleBlocker }) {
  const id = useId();
  const clock = useReaderClock();
  return (
    <section className="waitlist-panel" aria-labelledby={`${id}-state`}>
      <h2 id={`${id}-state`} className="waitlist-state">
        {blockedLabel(product, blocker, clock)}
      </h2>
      <p>
        <Reason product={product} blocker={blocker} /> Join the waitlist and we email you once {WHEN[blocker]}, with a
        link back here.
      </p>
      <WaitlistForm productId={product.id} when={WHEN[blocker]} />
    </section>
  );
}

function Reason({ product, blocker }: { product: StoreProduct; blocker: SaleBlocker }) {
  const clock = useReaderClock();
  switch (blocker) {
    case 'sold-out':
      return <>Every seat of this course is taken.</>;
    case 'not-open': {
      const opensAt = product.enrollment.opensAt;
      return opensAt ? (
        <>
          Enrollment opens <time dateTime={opensAt}>{formatDateTimeWithZone(opensAt, clock)}</time>.
        </>
      ) : (
        <>Enrollment has not opened yet.</>
      );
    }
    case 'closed':
      return <>Enrollment for this course has closed.</>;
    case 'not-on-sale':
      return <>This course is not on sale yet.</>;
  }
}

/** The email field (a signed-in learner's address filled in) and "Join the waitlist"; then what happens next. */
function WaitlistForm({ productId, when }: { productId: string; when: string }) {
  const id = useId();
  const { state } = useSession();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [joined, setJoined] = useState<JoinedWaitlist | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const doneRef = useRef<HTMLDivElement>(null);
  const signedInEmail = state.status === 'signed-in' ? state.user.email : null;

  // The signed-in learner's address, unless they typed something already.
  useEffect(() => {
    if (signedInEmail && !touched) setEmail(signedInEmail);
  }, [signedInEmail, touched]);
  useEffect(() => {
    if (joined) doneRef.current?.focus();
  }, [joined]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setError(null);
    setEmailError(null);
    const address = email.trim();
    if (!/^[^\s@]+@[^\s@]+$/.test(address)) {
      setEmailError(
        address
          ? 'Enter a valid email address, like name@example.com.'
          : 'Enter your email address: we write to it when the course opens.',
      );
      emailRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      setJoined(await joinWaitlist(productId, address));
    } catch (caught) {
      if (caught instanceof ApiError && caught.body.errors?.email) {
        setEmailError(`Email ${caught.body.errors.email}.`);
        emailRef.current?.focus();
      } else if (isApiError(caught, 'product-on-sale')) {
        setError('Good news: this course can be bought now. Reload the page to buy it.');
      } else {
        setError(failureText(caught));
      }
    } finally {
      setBusy(false);
    }
  }

  if (joined) {
    return (
      <div ref={doneRef} tabIndex={-1} role="status" className="notice notice-info waitlist-joined">
        <p>
          <strong>
            {joined.status === 'joined' ? 'You are on the waitlist.' : 'You were already on the waitlist.'}
          </strong>{' '}
          We email {joined.email} once {when}. Each email has a link to leave the waitlist.
        </p>
      </div>
    );
  }

  return (
    <form className="stack waitlist-form" onSubmit={handleSubmit} noValidate aria-busy={busy}>
      <div className="field">
        <label htmlFor={`${id}-email`}>Email for the waitlist</label>
        <EmailInput
          ref={emailRef}
          id={`${id}-email`}
          value={email}
          onChange={(value) => {
            setTouched(true);
            setEmail(value);
          }}
          invalid={!!emailError}
          describedBy={emailError ? `${id}-email-error` : `${id}-email-hint`}
        />
        <ErrorOrHint id={`${id}-email`} error={emailError}>
          We write only {when}.
        </ErrorOrHint>
      </div>
      <div className="actions">
        <button type="submit" aria-disabled={busy || undefined}>
          Join the waitlist
        </button>
        <BusyStatus busy={busy} text="Joining the waitlist…" />
      </div>
      {error && (
        <p role="alert" className="notice notice-error">
          {error}
        </p>
      )}
    </form>
  );
}
