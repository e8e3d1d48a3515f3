import { useEffect, useState, type RefObject } from 'react';
import { Link, useParams } from 'wouter';
import { productPath } from '../api/catalog';
import { isApiError } from '../api/client';
import { getInvite, redeemInvite, type Invite } from '../api/teams';
import { LoadStatus } from '../LoadStatus';
import { loginPath } from '../redirects';
import { useSession } from '../session';
import { useAsync } from '../useAsync';
import { useHead } from '../head';
import { useFocusOnChange } from '../useFocusOnChange';
import { ActionButton } from '../ActionFeedback';

type Outcome =
  | { kind: 'taken'; coursePath: string }
  | { kind: 'owned'; message: string }
  | { kind: 'used-up' }
  | { kind: 'inactive' }
  | { kind: 'replaced' }
  /** `again`: a "Try again" met the same refusal (the owner has not let them back in yet). */
  | { kind: 'revoked'; message: string; again: boolean }
  | { kind: 'error'; message: string };

/**
 * /invites/:code: the link a team owner shares (the route's param is still named couponId: the first links carried
 * the team coupon's id, which stays their code). Anyone sees which course it is for; taking the seat needs an
 * account, so visitors sign in first and come back here.
 */
export function InvitePage() {
  const { couponId: code = '' } = useParams();
  const invite = useAsync(() => getInvite(code), [code]);
  const failure = invite.status === 'error' ? invite.error : null;
  const notFound = isApiError(failure, 'coupon-not-found', 'not-found', 'validation-failed');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const headingRef = useFocusOnChange<HTMLHeadingElement>(
    notFound ? 'not-found' : outcome?.kind === 'taken' ? 'taken' : invite.status,
  );
  const product = invite.status === 'ready' ? invite.data.product.name : null;
  // Rendered on the server for link previews (which course the seat is for), never indexed: the link is a team's.
  useHead({
    title: notFound
      ? 'Invite link not valid'
      : outcome?.kind === 'taken'
        ? 'You have a seat'
        : product
          ? invite.status === 'ready' && invite.data.gift
            ? `A gift for you: ${product}`
            : `Join the team: ${product}`
          : 'Team invite',
    description: product
      ? invite.status === 'ready' && invite.data.gift
        ? `${product}, given to you.`
        : `A seat in ${product}, from a team that bought it.`
      : null,
    noindex: true,
  });

  if (notFound) {
    return (
      <section className="narrow">
        <h1 ref={headingRef} tabIndex={-1}>
          This invite link is not valid
        </h1>
        <p>
          Check that you copied the whole link. If you did, the team’s owner may have replaced it with a new one: ask
          the person who sent it for the current link. <Link to="/">Browse the courses</Link>
        </p>
      </section>
    );
  }
  if (invite.status !== 'ready') {
    return (
      <section className="narrow">
        <h1 ref={headingRef} tabIndex={-1}>
          Team invite
        </h1>
        <LoadStatus state={invite} retry={invite.retry} what="the invite" />
      </section>
    );
  }
  if (outcome?.kind === 'taken')
    return <SeatTaken invite={invite.data} coursePath={outcome.coursePath} headingRef={headingRef} />;
  return (
    <InviteDetails code={code} invite={invite.data} outcome={outcome} onOutcome={setOutcome} headingRef={headingRef} />
  );
}

interface DetailsProps {
  code: string;
  invite: Invite;
  outcome: Outcome | null;
  onOutcome: (outcome: Outcome) => void;
  headingRef: RefObject<HTMLHeadingElement | null>;
}

function InviteDetails({ code, invite, outcome, onOutcome, headingRef }: DetailsProps) {
  const { state, refresh } = useSession();
  const [busy, setBusy] = useState(false);
  const owner = invite.ownerName ?? 'The team’s owner';
  const askOwner = invite.ownerName ? `Ask ${invite.ownerName}` : 'Ask the person who sent you the link';
  // A refusal that the invite itself already explains (no seats, inactive) replaces the button.
  const blocked =
    !invite.active ||
    invite.seatsFree === 0 ||
    (outcome !== null && ['used-up', 'inactive', 'owned', 'replaced', 'revoked'].includes(outcome.kind));

  async function handleTake() {
    setBusy(true);
    try {
      const seat = await redeemInvite(code);
      onOutcome({ kind: 'taken', coursePath: seat.coursePath });
    } catch (caught) {
      setBusy(false);
      if (isApiError(caught, 'unauthenticated')) return refresh();
      if (isApiError(caught, 'already-purchased')) onOutcome({ kind: 'owned', message: caught.message });
      else if (isApiError(caught, 'seat-revoked'))
        onOutcome({ kind: 'revoked', message: caught.message, again: outcome?.kind === 'revoked' });
      else if (isApiError(caught, 'coupon-used-up')) onOutcome({ kind: 'used-up' });
      // The owner replaced the link while this page was open.
      else if (isApiError(caught, 'coupon-not-found')) onOutcome({ kind: 'replaced' });
      else if (isApiError(caught, 'coupon-inactive')) onOutcome({ kind: 'inactive' });
      else
        onOutcome({
          kind: 'error',
          message: caught instanceof Error ? caught.message : 'Something went wrong. Please try again.',
        });
    }
  }

  return (
    <section className="narrow invite">
      <h1 ref={headingRef} tabIndex={-1}>
        {invite.gift ? `A gift for you: ${invite.product.name}` : `Join the team for ${invite.product.name}`}
      </h1>
      <p className="invite-from">
        {invite.gift
          ? `${invite.ownerName ?? 'Someone'} gave you ${invite.product.name}. It costs you nothing: claim it and it is yours.`
          : `${owner} bought seats for ${invite.product.name} and invited you to take one. It costs you nothing.`}
      </p>
      <p>
        <Link to={productPath(invite.product)}>About the course</Link>
      </p>

      {!invite.active || outcome?.kind === 'inactive' ? (
        <div role="alert" className="notice notice-error">
          <p>This team is no longer active, so its seats cannot be taken. {askOwner} for a new invite.</p>
        </div>
      ) : invite.seatsFree === 0 || outcome?.kind === 'used-up' ? (
        <div role="alert" className="notice notice-error">
          <p>
            {invite.gift
              ? `This gift has been claimed already. ${askOwner} if it was meant for you.`
              : `Every seat in this team is taken. ${askOwner} to buy more seats, then open this link again.`}
          </p>
        </div>
      ) : null}

      {outcome?.kind === 'replaced' && (
        <div role="alert" className="notice notice-error">
          <p>
            This invite link has just stopped working: the team’s owner replaced it with a new one. {askOwner} for the
            new link.
          </p>
        </div>
      )}

      {outcome?.kind === 'revoked' && (
        <RevokedNotice
          key={String(outcome.again)}
          message={outcome.message}
          again={outcome.again}
          owner={owner}
          busy={busy}
          onTryAgain={handleTake}
        />
      )}

      {outcome?.kind === 'owned' && (
        <div role="alert" className="notice notice-info">
          <p>{outcome.message} There is nothing more to do: the course is in your account.</p>
          <p className="actions">
            <Link className="button-link" to="/purchases">
              My purchases
            </Link>
            <Link to={productPath(invite.product)}>Go to the course</Link>
          </p>
        </div>
      )}

      {!blocked && state.status === 'loading' && (
        <p role="status" className="loading">
          Checking whether you are signed in…
        </p>
      )}
      {!blocked && (state.status === 'signed-out' || state.status === 'error') && (
        <div className="notice notice-info">
          <p>
            Sign in to take your seat. New here? Signing in with your email address creates your account; no password
            needed.
          </p>
          <p>
            <Link className="button-link" to={loginPath(`/invites/${encodeURIComponent(code)}`)}>
              {invite.gift ? 'Sign in to claim your gift' : 'Sign in to take your seat'}
            </Link>
          </p>
          <p className="hint">After signing in you come back to this page.</p>
        </div>
      )}
      {!blocked && state.status === 'signed-in' && (
        <>
          <p>
            The {invite.gift ? 'gift' : 'seat'} goes to your account, <strong>{state.user.email}</strong>. Not you? Sign
            out at the top of the page and sign in with your own email address.
          </p>
          <ActionButton busy={busy} busyText="Taking your seat…" onClick={handleTake}>
            {invite.gift ? 'Claim my gift' : 'Take my seat'}
          </ActionButton>
        </>
      )}
      {outcome?.kind === 'error' && (
        <div role="alert" className="notice notice-error">
          <p>We could not give you the seat: {outcome.message}</p>
          <p className="hint">Try again in a moment.</p>
        </div>
      )}
    </section>
  );
}

/**
 * The owner removed this person from the team: the link refuses them (403 `seat-revoked`) until the owner lets them
 * back in from the team page. Then "Try again" takes the seat without reloading.
 */
function RevokedNotice(props: {
  message: string;
  again: boolean;
  owner: string;
  busy: boolean;
  onTryAgain: () => void;
}) {
  const { message, again, owner, busy, onTryAgain } = props;
  return (
    <div className="notice notice-error">
      <div role="alert">
        <p>
          <strong>
            {again ? 'Still no seat: you have not been let back in yet.' : 'You cannot take a seat in this team.'}
          </strong>{' '}
          {message}
        </p>
        <p>
          {owner} lets you back in from their team page (under “Removed from the team”, “Let back in”). Once they have,
          press Try again to take your seat.
        </p>
      </div>
      <ActionButton busy={busy} busyText="Taking your seat…" className="button-quiet" onClick={onTryAgain}>
        Try again
      </ActionButton>
    </div>
  );
}

function SeatTaken({
  invite,
  coursePath,
  headingRef,
}: {
  invite: Invite;
  /** The course the seat opens (not its sales page). */
  coursePath: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  useEffect(() => {
    window.scrollTo(0, 0);
  }, []);
  const from = !invite.ownerName
    ? ''
    : invite.gift
      ? `, a gift from ${invite.ownerName}`
      : `, courtesy of ${invite.ownerName}’s team`;
  return (
    <section className="narrow">
      <h1 ref={headingRef} tabIndex={-1}>
        {invite.gift ? 'The gift is yours' : 'You have a seat'}
      </h1>
      <p role="status">
        {invite.product.name} is yours to study{from}. We also sent you an email about it.
      </p>
      <p className="actions">
        <Link className="button-link" to={coursePath}>
          Go to the course
        </Link>
        <Link to="/purchases">My purchases</Link>
      </p>
    </section>
  );
}
