import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import { ApiError, isApiError } from '../api/client';
import { CopyLinkField } from '../CopyLinkField';
import { getCheckoutStatus, type CheckoutState } from '../api/purchases';
import { formatMoney } from '../../../api/src/shared/money';
import { plural } from '../../../api/src/shared/words';
import { loginPath } from '../redirects';
import { useSession } from '../session';
import { useFocusOnChange } from '../useFocusOnChange';
import { RetryAlert } from '../LoadStatus';
import { useDocumentTitle } from '../useDocumentTitle';
import { ThanksWorkshop } from './ThanksWorkshop';

type Receipt = NonNullable<CheckoutState['receipt']>;

/** How often, and for how long, the page asks whether the payment has gone through. */
const POLL_EVERY_MS = 1000;
const GIVE_UP_AFTER_MS = 30_000;

type Phase =
  | { kind: 'checking' }
  | { kind: 'fulfilled'; team: CheckoutState['team']; receipt: CheckoutState['receipt'] }
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
        const { status, team, receipt } = await getCheckoutStatus(checkoutId, controller.signal);
        if (status === 'fulfilled') outcome = { kind: status, team: team ?? null, receipt: receipt ?? null };
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
      return (
        <>
          {phase.receipt && <ReceiptSummary receipt={phase.receipt} signedIn={state.status === 'signed-in'} />}
          {phase.team?.gift ? (
            <GiftReady team={phase.team} receipt={phase.receipt} />
          ) : phase.team ? (
            <TeamReady team={phase.team} email={phase.receipt?.email ?? null} />
          ) : (
            <>
              {phase.receipt && isWorkshop(phase.receipt) && (
                <ThanksWorkshop productId={phase.receipt.product.id} email={phase.receipt.email} />
              )}
              <StartLearning receipt={phase.receipt} />
            </>
          )}
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

/** What was bought, what it cost, where the receipt went, and the invoice (behind sign-in, with the address filled in). */
function ReceiptSummary({ receipt, signedIn }: { receipt: Receipt; signedIn: boolean }) {
  const invoicePath = receipt.invoiceId ? `/invoices/${encodeURIComponent(receipt.invoiceId)}` : null;
  return (
    <dl className="receipt-summary">
      <dt>{isWorkshop(receipt) ? 'Workshop' : 'Course'}</dt>
      <dd>
        {receipt.product.name}
        {receipt.quantity > 1 ? ` (${plural(receipt.quantity, 'seat', 'seats')})` : ''}
      </dd>
      <dt>Paid</dt>
      <dd>{receipt.amount === 0 ? 'Nothing: it was free' : formatMoney(receipt.amount, receipt.currency)}</dd>
      {receipt.amount > 0 && receipt.email && (
        <>
          <dt>Receipt sent to</dt>
          <dd>
            <strong>{receipt.email}</strong>
          </dd>
        </>
      )}
      {invoicePath && (
        <>
          <dt>Invoice</dt>
          <dd>
            <Link to={signedIn ? invoicePath : loginPath(invoicePath, receipt.email ?? undefined)}>
              View or print your invoice
            </Link>
          </dd>
        </>
      )}
    </dl>
  );
}

/** One person's purchase: straight into its course when signed in; else the receipt's link, or sign in now. */
function StartLearning({ receipt }: { receipt: Receipt | null }) {
  const { state } = useSession();
  // A workshop's sessions, join links and calendar file are in My learning.
  const workshop = isWorkshop(receipt);
  const target = workshop ? '/learning' : (receipt?.coursePath ?? '/purchases');
  if (state.status === 'loading') return null;
  if (state.status === 'signed-in') {
    return (
      <p className="actions">
        <Link className="button-link" to={target}>
          {workshop ? 'Go to My learning' : receipt?.coursePath ? 'Go to the course' : 'My purchases'}
        </Link>
        <Link to="/purchases">My purchases</Link>
      </p>
    );
  }
  return (
    <>
      <p>
        {receipt && receipt.amount > 0
          ? `Your receipt has a link that signs you in and opens ${workshop ? 'your workshop' : 'the course'}: no password needed. Or sign in here now.`
          : 'Sign in with the email address you gave to start learning: no password needed.'}
      </p>
      <p className="actions">
        <Link className="button-link" to={loginPath(target, receipt?.email ?? undefined)}>
          {workshop ? 'Sign in to see your workshop' : 'Sign in to start learning'}
        </Link>
        <Link to="/">Browse the courses</Link>
      </p>
    </>
  );
}

/**
 * A team purchase opens no course by itself (docs/domain.md §7): its seats are ready, the buyer takes one on the team
 * page like anyone else ("take your seat"), and shares the invite link, shown here too.
 */
function TeamReady({ team, email }: { team: NonNullable<CheckoutState['team']>; email: string | null }) {
  const { state } = useSession();
  const teamPath = `/teams/${encodeURIComponent(team.teamId)}`;
  const seats = plural(team.seats, 'seat', 'seats');
  const signedIn = state.status === 'signed-in';
  return (
    <>
      <p>
        Your team’s <strong>{seats}</strong> {team.seats === 1 ? 'is' : 'are'} ready.{' '}
        {team.buyerHasCourse && !team.ownerHasSeat
          ? 'Each person who takes a seat gets the course.'
          : 'The purchase itself does not open the course, not even for you: everyone who studies it takes one of the seats, you included.'}
      </p>
      <ol className="next-steps">
        <li>
          <h2>{team.buyerHasCourse && !team.ownerHasSeat ? 'Your seats to give away' : 'Take your seat'}</h2>
          <p>
            {team.ownerHasSeat
              ? 'You already have a seat.'
              : team.buyerHasCourse
                ? 'You already have this course, so every seat is one to give away: invite people below.'
                : `If you want to study it too, take one seat yourself on your team page (one click)${signedIn ? '.' : ': your receipt has a link that signs you in there, or sign in now.'}`}
          </p>
          {state.status !== 'loading' && (
            <p className="actions">
              <Link className="button-link" to={signedIn ? teamPath : loginPath(teamPath, email ?? undefined)}>
                {stepLabel(team, signedIn)}
              </Link>
              {signedIn && <Link to="/purchases">My purchases</Link>}
            </p>
          )}
        </li>
        <li>
          <h2>Invite your team</h2>
          {team.inviteUrl ? (
            <CopyLinkField
              label="Invite link"
              url={team.inviteUrl}
              hint="Share this link with the people you bought seats for: each person who opens it and signs in takes one seat. It is also in your receipt and on your team page."
            />
          ) : (
            <p>The invite link is in your receipt, and on your team page once you sign in.</p>
          )}
        </li>
      </ol>
    </>
  );
}

/** The team step's button: take the seat, or (a seat taken, the course owned) go to the team page. */
function stepLabel(team: NonNullable<CheckoutState['team']>, signedIn: boolean): string {
  if (team.ownerHasSeat || team.buyerHasCourse) return signedIn ? 'Go to your team' : 'Sign in to go to your team';
  return signedIn ? 'Take your seat' : 'Sign in to take your seat';
}

/** A live workshop: the thank-you page shows its sessions, and says "workshop" where a course's says "course". */
function isWorkshop(receipt: Receipt | null): boolean {
  return receipt?.product.productType === 'live';
}

/**
 * One seat bought for someone else: the claim link to send them (one person takes it, signing in with their own
 * address), and the gift's page, which says when it is claimed.
 */
function GiftReady({ team, receipt }: { team: NonNullable<CheckoutState['team']>; receipt: Receipt | null }) {
  const { state } = useSession();
  const giftPath = `/teams/${encodeURIComponent(team.teamId)}`;
  const signedIn = state.status === 'signed-in';
  const name = receipt?.product.name ?? 'the course';
  return (
    <>
      <p>
        Your gift of <strong>{name}</strong> is ready. Send the claim link to the person you are giving it to: they sign
        in with their own email address and it is theirs. It works for one person.
      </p>
      {team.inviteUrl ? (
        <CopyLinkField
          label="Claim link"
          url={team.inviteUrl}
          hint="Send it by email or message. It is also in your receipt and on your gift’s page."
        />
      ) : (
        <p>The claim link is in your receipt, and on your gift’s page once you sign in.</p>
      )}
      {state.status !== 'loading' && (
        <p className="actions">
          <Link
            className="button-link button-link-quiet"
            to={signedIn ? giftPath : loginPath(giftPath, receipt?.email ?? undefined)}
          >
            {signedIn ? 'Your gift’s page' : 'Sign in to see your gift'}
          </Link>
          {signedIn && <Link to="/purchases">My purchases</Link>}
        </p>
      )}
    </>
  );
}
