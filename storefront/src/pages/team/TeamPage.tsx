import { useRef, useState, type RefObject } from 'react';
import { Link, useParams } from 'wouter';
import { isApiError } from '../../api/client';
import { getTeam, type TeamView } from '../../api/teams';
import { LoadStatus } from '../../LoadStatus';
import { RequireSignIn } from '../../RequireSignIn';
import { type useAsync } from '../../useAsync';
import { useDocumentTitle } from '../../useDocumentTitle';
import { useFocusOnChange } from '../../useFocusOnChange';
import { plural } from '../../../../api/src/shared/words';
import { BuyMoreSeats } from './BuyMoreSeats';
import { ClaimSeat } from './ClaimSeat';
import { GiftClaim } from './GiftClaim';
import { InviteLink } from './InviteLink';
import { MembersTable } from './MembersTable';
import { RevokedList } from './RevokedList';
import { useAccountAsync } from '../../useAccountAsync';
import { grantsAccess } from '../../../../api/src/shared/purchase-status';

/**
 * /teams/:purchaseId: the owner's team: seats, the invite link, members (revocable), their own seat, more seats; for a
 * gift, its claim link and who claimed it.
 */
export function TeamPage() {
  return <RequireSignIn>{() => <TeamLoader />}</RequireSignIn>;
}

function TeamLoader() {
  const { purchaseId = '' } = useParams();
  const team = useAccountAsync(() => getTeam(purchaseId), [purchaseId]);
  const failure = team.status === 'error' ? team.error : null;
  const notFound = isApiError(failure, 'team-not-found', 'not-found', 'validation-failed');
  const headingRef = useFocusOnChange<HTMLHeadingElement>(notFound ? 'not-found' : team.status);

  if (notFound) return <TeamNotFound headingRef={headingRef} />;
  if (team.status !== 'ready') return <TeamLoading team={team} headingRef={headingRef} />;
  return <TeamManager key={team.data.purchaseId} initial={team.data} headingRef={headingRef} />;
}

function TeamNotFound({ headingRef }: { headingRef: RefObject<HTMLHeadingElement | null> }) {
  useDocumentTitle('Team not found');
  return (
    <section>
      <h1 ref={headingRef} tabIndex={-1}>
        Team not found
      </h1>
      <p>
        There is no team purchase with this address in your account. Your team purchases are listed in{' '}
        <Link to="/purchases">My purchases</Link>, each with a “Manage team” link.
      </p>
    </section>
  );
}

function TeamLoading({
  team,
  headingRef,
}: {
  team: ReturnType<typeof useAsync<TeamView>>;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  useDocumentTitle('Your team');
  return (
    <section>
      <h1 ref={headingRef} tabIndex={-1}>
        Your team
      </h1>
      <LoadStatus state={team} retry={team.retry} what="your team" />
    </section>
  );
}

function TeamManager({ initial, headingRef }: { initial: TeamView; headingRef: RefObject<HTMLHeadingElement | null> }) {
  const [team, setTeam] = useState(initial);
  const [announcement, setAnnouncement] = useState('');
  const membersHeadingRef = useRef<HTMLHeadingElement>(null);
  const revokedHeadingRef = useRef<HTMLHeadingElement>(null);
  const active = grantsAccess(team.status);
  useDocumentTitle(team.gift ? `Gift · ${team.product.name}` : `Team · ${team.product.name}`);

  /** A claim or a revocation answered the team as it is now; say what happened and land on the members. */
  function changed(next: TeamView, message: string) {
    setTeam(next);
    setAnnouncement(message);
    membersHeadingRef.current?.focus(); // the button that was pressed is gone
  }

  /** Someone was let back in: land on the people still removed, or on the members once nobody is left there. */
  function readmitted(next: TeamView, message: string) {
    setTeam(next);
    setAnnouncement(message);
    // Both headings are on the page now; the list's goes when its last person does.
    (next.revoked.length > 0 ? revokedHeadingRef : membersHeadingRef).current?.focus();
  }

  /** A new invite link: the invite section keeps the focus (on the new link). */
  function linkReplaced(next: TeamView, message: string) {
    setTeam(next);
    setAnnouncement(message);
  }

  return (
    <article className="team-page">
      <p>
        <Link to="/purchases">← My purchases</Link>
      </p>
      <h1 ref={headingRef} tabIndex={-1}>
        {team.gift ? `Your gift of ${team.product.name}` : `Your team for ${team.product.name}`}
      </h1>
      {!active && (
        <div className="notice notice-error">
          <p>
            {team.gift
              ? `This gift is ${team.status.toLowerCase()}, so its claim link no longer works.`
              : `This team purchase is ${team.status.toLowerCase()}, so its invite link no longer works and nobody new can join.`}{' '}
            Contact support if you think this is a mistake.
          </p>
        </div>
      )}
      <p role="status" className="status-message">
        {announcement}
      </p>
      {team.gift ? (
        <GiftPage
          team={team}
          active={active}
          membersHeadingRef={membersHeadingRef}
          onChanged={changed}
          onReset={linkReplaced}
        />
      ) : (
        <TeamParts
          team={team}
          active={active}
          membersHeadingRef={membersHeadingRef}
          onChanged={changed}
          onReset={linkReplaced}
        />
      )}
      <RevokedList team={team} headingRef={revokedHeadingRef} onChanged={readmitted} />
      {active && !team.gift && <BuyMoreSeats product={team.product} />}
    </article>
  );
}

interface PartsProps {
  team: TeamView;
  active: boolean;
  membersHeadingRef: RefObject<HTMLHeadingElement | null>;
  onChanged: (next: TeamView, message: string) => void;
  onReset: (next: TeamView, message: string) => void;
}

/**
 * A gift: who claimed it, and while nobody has, the claim link to send. Its buyer takes no seat of it (the API
 * refuses, `gift-not-for-buyer`) and buys no more seats for it (a gift never grows).
 */
function GiftPage({ team, active, membersHeadingRef, onChanged, onReset }: PartsProps) {
  return (
    <>
      <GiftClaim team={team} headingRef={membersHeadingRef} onChanged={onChanged} />
      {active && team.seats.free > 0 && <InviteLink team={team} onReset={onReset} />}
    </>
  );
}

/** A team: its seats, the invite link, the owner's own seat and the members. */
function TeamParts({ team, active, membersHeadingRef, onChanged, onReset }: PartsProps) {
  return (
    <>
      <SeatsSummary seats={team.seats} />
      {active && <InviteLink team={team} onReset={onReset} />}
      {active && !team.ownerHasSeat && (
        <ClaimSeat
          team={team}
          onClaimed={(next) => onChanged(next, 'You have a seat: the course is now in My purchases.')}
        />
      )}
      <MembersTable team={team} headingRef={membersHeadingRef} onChanged={onChanged} />
    </>
  );
}

function SeatsSummary({ seats }: { seats: TeamView['seats'] }) {
  const takenPercent = seats.total > 0 ? Math.round((seats.used / seats.total) * 100) : 0;
  return (
    <section className="team-section" aria-labelledby="team-seats">
      <h2 id="team-seats">Seats</h2>
      <p className="seat-count">
        <strong>{plural(seats.total, 'seat', 'seats')}</strong> in all: {seats.used} taken, {seats.free} free
      </p>
      <div className="seat-bar" aria-hidden="true">
        <span className="seat-bar-taken" style={{ width: `${takenPercent}%` }} />
      </div>
    </section>
  );
}
