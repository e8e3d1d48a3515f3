import type { RefObject } from 'react';
import { isApiError } from '../../api/client';
import { getTeam, revokeSeat, type TeamMember, type TeamView } from '../../api/teams';
import { formatDate } from '../../format';
import { ConfirmActions } from '../../ActionFeedback';
import { failedTo, useConfirmation } from '../../useConfirmation';
import { shownName } from '../../../../api/src/shared/shown-name';

interface Props {
  team: TeamView;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onChanged: (team: TeamView, message: string) => void;
}

/**
 * Whether the gift was claimed, by whom and when (the buyer sees the claimant's email, as a team's owner sees its
 * members'), and "Take the gift back" for a gift claimed by the wrong person.
 */
export function GiftClaim({ team, headingRef, onChanged }: Props) {
  // A gift has one seat, so at most one person holds it.
  const holder = team.members[0];
  return (
    <section className="team-section" aria-labelledby="gift-claim">
      <h2 id="gift-claim" ref={headingRef} tabIndex={-1}>
        {holder ? 'Claimed' : 'Not claimed yet'}
      </h2>
      {holder ? (
        <Claimed team={team} holder={holder} onChanged={onChanged} />
      ) : (
        <p className="empty">Send the claim link below: the course is theirs as soon as they open it and sign in.</p>
      )}
    </section>
  );
}

function Claimed({ team, holder, onChanged }: { team: TeamView; holder: TeamMember; onChanged: Props['onChanged'] }) {
  const name = shownName({ id: holder.userId, name: holder.name });
  const { confirming, ask, startRef, actions } = useConfirmation(async () => {
    try {
      onChanged(
        await revokeSeat(team.purchaseId, holder.purchaseId),
        `You took the gift back from ${name}: we emailed them. Replace the claim link before you send it to someone else.`,
      );
    } catch (caught) {
      if (!isApiError(caught, 'not-found')) throw caught;
      // Taken back elsewhere already: show the gift as it is now (if that fails too, the first failure is the news).
      const now = await getTeam(team.purchaseId).catch(() => Promise.reject(caught));
      onChanged(now, `The gift had already been taken back from ${name}.`);
    }
  }, failedTo('take the gift back'));

  return (
    <>
      <p className="gift-claimed">
        Claimed by <strong>{name}</strong> <span className="member-email">({holder.email})</span> on{' '}
        <time dateTime={holder.joinedAt}>{formatDate(holder.joinedAt)}</time>. The course is theirs.
      </p>
      {confirming ? (
        <div className="revoke-confirm">
          <p>
            Take the gift back from {name}? Only if it went to the wrong person: they lose the course (their progress is
            kept), we email them, and the claim link will not let them claim it again unless you allow it.
          </p>
          <ConfirmActions {...actions} label="Yes, take it back" busyText="Taking the gift back…" />
        </div>
      ) : (
        <p>
          <button ref={startRef} type="button" className="button-quiet" onClick={ask}>
            Take the gift back
          </button>
        </p>
      )}
    </>
  );
}
