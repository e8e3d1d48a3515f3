import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import { ApiError, isApiError } from '../api/client';
import { getCheckoutStatus, type CheckoutState } from '../api/purchases';
import { plural } from './product/pricingText';
import { loginPath } from '../redirects';
import { useSession } from '../session';
import { useFocusOnChange } from '../useFocusOnChange';
import { RetryAlert } from '../LoadStatus';
import { useDocumentTitle } from '../useDocumentTitle';

/** How often, and for how long, the page asks whether the payment has gone through. */
const POLL_EVERY_MS = 1000;
const GIVE_UP_AFTER_MS = 30_000;

type Phase =
  | { kind: 'checking' }
  | { kind: 'fulfilled'; team: CheckoutState['team'] }
  | { kind: 'refunded' }
  | { kind: 'canceled' }
  | { kind: 'still-open' }
  | { kind: 'not-found' }
  | { kind: 'error'; message: string };

/** /thanks?checkout=<id>: where the payment provider sends the buyer; waits until the purchase exists. */
export function ThanksPage() {
  useDocumentTitle('Thank you for your purchase');
  const [params] = useSearchParams();
  const checkoutId = params.get('checkout')?.trim() ?? '';
  const [phase, setPhase] = useState<Phase>({ kind: 'checking' });
  const [attempt, setAttempt] = useState(0);
  const headingRef = useFocusOnChange<HTMLHeadingElement>(`${phase.kind}-${attempt}`);

  useEffect(() => {
    if (!checkoutId) return setPhase({ kind: 'not-found' });
    const controller = new AbortController();
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;

    async function ask() {
      let outcome: Phase | null = null;
      try {
        const { status, team } = await getCheckoutStatus(checkoutId, controller.signal);
        if (status === 'fulfilled') outcome = { kind: status, team: team ?? null };
        else if (status !== 'open') outcome = { kind: status };
      } catch (error) {
        if (controller.signal.aborted) return;
        if (isApiError(error, 'not-found', 'validation-failed')) outcome = { kind: 'not-found' };
        // A dropped connection or a server hiccup while waiting: keep asking until the time limit.
        else if (
          !(error instanceof ApiError && (error.status === 0 || error.status >= 500)) ||
          Date.now() - started >= GIVE_UP_AFTER_MS
        ) {
          outcome = { kind: 'error', message: error instanceof Error ? error.message : 'Something went wrong.' };
        }
      }
      if (controller.signal.aborted) return;
      if (!outcome && Date.now() - started >= GIVE_UP_AFTER_MS) outcome = { kind: 'still-open' };
      if (outcome) setPhase(outcome);
      else timer = setTimeout(ask, POLL_EVERY_MS);
    }

    setPhase({ kind: 'checking' });
    void ask();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [checkoutId, attempt]);

  const checkAgain = () => setAttempt((n) => n + 1);

  return (
    <section className="narrow thanks">
      <h1 ref={headingRef} tabIndex={-1}>
        Thank you!
      </h1>
      <div role="status" aria-live="polite" className="status-message">
        {statusLine(phase)}
      </div>
      <PhaseDetails phase={phase} onCheckAgain={checkAgain} />
    </section>
  );
}

/** The short sentence the live region announces for each phase. */
function statusLine(phase: Phase) {
  switch (phase.kind) {
    case 'checking':
      return <p className="loading">Confirming your payment…</p>;
    case 'fulfilled':
      return <p className="outcome">Your purchase is confirmed.</p>;
    case 'refunded':
      return <p className="outcome">The course sold out while you were paying, so you were refunded in full.</p>;
    case 'canceled':
      return <p className="outcome">The payment was canceled.</p>;
    case 'still-open':
      return <p className="outcome">Your payment is still being confirmed.</p>;
    case 'not-found':
    case 'error':
      return null; // the alert below says it
  }
}

function PhaseDetails({ phase, onCheckAgain }: { phase: Phase; onCheckAgain: () => void }) {
  const { state } = useSession();
  switch (phase.kind) {
    case 'checking':
      return <p className="hint">This usually takes a few seconds. Please keep this page open.</p>;
    case 'fulfilled':
      if (phase.team) return <TeamReady team={phase.team} />;
      return (
        <>
          {state.status === 'signed-in' ? (
            <p>You can start learning right away. Your receipt and invoice are in My purchases.</p>
          ) : state.status === 'loading' ? null : (
            <p>
              We will send a receipt to the email address you gave at checkout. To start learning,{' '}
              <Link to={loginPath('/purchases')}>sign in with that email</Link>: the course is waiting under My
              purchases.
            </p>
          )}
          <p className="actions">
            {state.status === 'signed-in' && (
              <Link className="button-link" to="/purchases">
                My purchases
              </Link>
            )}
            <Link to="/">Browse the courses</Link>
          </p>
        </>
      );
    case 'refunded':
      return (
        <>
          <p>
            The last seat was taken by someone else before your payment finished. Nothing is owed: the whole amount goes
            back to your card or account, which can take a few days to show.
          </p>
          <p>
            <Link to="/">Browse the courses</Link>
          </p>
        </>
      );
    case 'canceled':
      return (
        <>
          <p>Nothing was charged. You can go back and buy whenever you are ready.</p>
          <p>
            <Link to="/">Back to the courses</Link>
          </p>
        </>
      );
    case 'still-open':
      return (
        <>
          <p>
            The payment provider has not confirmed it yet. You have not been charged twice: check again in a moment, or
            look for the receipt in your email.
          </p>
          <div className="actions">
            <button type="button" onClick={onCheckAgain}>
              Check again
            </button>
          </div>
        </>
      );
    case 'not-found':
      return (
        <div role="alert" className="notice notice-error">
          <p>We could not find this checkout. If you paid, your receipt is on its way by email.</p>
          <p>
            <Link to="/">Browse the courses</Link>
          </p>
        </div>
      );
    case 'error':
      return <RetryAlert text={`We could not check your payment: ${phase.message}`} retry={onCheckAgain} />;
  }
}

/**
 * A team purchase opens no course by itself (DOMAIN §7): its seats are ready, and the buyer takes one on the team
 * page like anyone else, and shares the invite link from there.
 */
function TeamReady({ team }: { team: NonNullable<CheckoutState['team']> }) {
  const { state } = useSession();
  const teamPath = `/teams/${encodeURIComponent(team.teamId)}`;
  const seats = plural(team.seats, 'seat', 'seats');
  return (
    <>
      <p>
        Your team’s <strong>{seats}</strong> {team.seats === 1 ? 'is' : 'are'} ready. The purchase itself does not open
        the course, not even for you: everyone who studies it takes one of the seats, you included.
      </p>
      {state.status === 'loading' ? null : state.status === 'signed-in' ? (
        <>
          <p>
            {team.ownerHasSeat
              ? 'You already have a seat. On your team page, copy the invite link and share it with the people you bought seats for.'
              : 'On your team page, take a seat yourself (one click) if you want to study it too, and copy the invite link to share with the people you bought seats for.'}{' '}
            Your receipt and invoice are in My purchases.
          </p>
          <p className="actions">
            <Link className="button-link" to={teamPath}>
              {team.ownerHasSeat ? 'Go to your team' : 'Take a seat and invite your team'}
            </Link>
            <Link to="/purchases">My purchases</Link>
          </p>
        </>
      ) : (
        <>
          <p>
            We will send a receipt to the email address you gave at checkout. Sign in with that email to reach your team
            page: take a seat there if you want to study it too, and copy the invite link to share.
          </p>
          <p className="actions">
            <Link className="button-link" to={loginPath(teamPath)}>
              Sign in to set up your team
            </Link>
          </p>
        </>
      )}
    </>
  );
}
