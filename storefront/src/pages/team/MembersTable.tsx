import type { RefObject } from 'react';
import { isApiError } from '../../api/client';
import { getTeam, revokeSeat, type TeamMember, type TeamView } from '../../api/teams';
import { formatDate } from '../../format';
import { ConfirmActions } from '../../ActionFeedback';
import { failedTo, useConfirmation } from '../../useConfirmation';
import { PeopleTable } from './PeopleTable';
import { shownName } from '../../../../api/src/shared/shown-name';

interface Props {
  team: TeamView;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onChanged: (team: TeamView, message: string) => void;
}

/** Who holds a seat, since when, and a Revoke button (with a confirmation) for each. */
export function MembersTable({ team, headingRef, onChanged }: Props) {
  return (
    <section className="team-section" aria-labelledby="team-members">
      <h2 id="team-members" ref={headingRef} tabIndex={-1}>
        Members
      </h2>
      {team.members.length === 0 ? (
        <p className="empty">
          Nobody has taken a seat yet. Share the invite link: people appear here as soon as they join.
        </p>
      ) : (
        <PeopleTable caption="People with a seat in your team" when="Joined">
          {team.members.map((member) => (
            <MemberRow key={member.purchaseId} team={team} member={member} onChanged={onChanged} />
          ))}
        </PeopleTable>
      )}
    </section>
  );
}

function MemberRow({ team, member, onChanged }: { team: TeamView; member: TeamMember; onChanged: Props['onChanged'] }) {
  const who = member.you ? 'your' : `${member.name ?? member.email}’s`;
  const { confirming, ask, startRef, actions } = useConfirmation(async () => {
    try {
      const next = await revokeSeat(team.purchaseId, member.purchaseId);
      onChanged(
        next,
        member.you
          ? 'You gave up your seat. It is free again.'
          : `${member.email} no longer has a seat. It is free again, and we emailed them. They cannot take a seat through the invite link unless you let them back in.`,
      );
    } catch (caught) {
      if (!isApiError(caught, 'not-found')) throw caught;
      // Revoked elsewhere already: show the team as it is now (if that fails too, the first failure is the news).
      const now = await getTeam(team.purchaseId).catch(() => Promise.reject(caught));
      onChanged(now, `${member.email} had already lost their seat.`);
    }
  }, failedTo('revoke the seat'));

  return (
    <tr>
      <th scope="row">
        {shownName({ id: member.userId, name: member.name })}
        {member.you && <span className="you"> (you)</span>}
      </th>
      <td className="member-email">{member.email}</td>
      <td>
        <span className="narrow-label">Joined </span>
        <time dateTime={member.joinedAt}>{formatDate(member.joinedAt)}</time>
      </td>
      <td className="member-actions">
        {confirming ? (
          <div className="revoke-confirm">
            <p>
              {member.you
                ? 'Give up your seat? You lose access to the course; your progress is kept.'
                : `Revoke ${who} seat? They lose access to the course (their progress is kept), we email them, and the seat is free for someone else. The invite link will not let them back in unless you allow it.`}
            </p>
            <ConfirmActions {...actions} label="Yes, revoke" busyText="Revoking…" />
          </div>
        ) : (
          <button ref={startRef} type="button" className="button-quiet" onClick={ask}>
            Revoke<span className="visually-hidden"> {who} seat</span>
          </button>
        )}
      </td>
    </tr>
  );
}
