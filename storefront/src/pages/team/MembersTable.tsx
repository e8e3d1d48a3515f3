import { useEffect, useRef, useState, type RefObject } from 'react';
import { isApiError } from '../../api/client';
import { getTeam, revokeSeat, type TeamMember, type TeamView } from '../../api/teams';
import { formatDate } from '../../format';
import { BusyStatus, FieldAlert } from '../../ActionFeedback';
import { PeopleTable } from './PeopleTable';

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
        <p className="empty">Nobody has taken a seat yet. Share the invite link: people appear here as soon as they join.</p>
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
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const revokeRef = useRef<HTMLButtonElement>(null);
  const who = member.you ? 'your' : `${member.name ?? member.email}’s`;

  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  async function handleRevoke() {
    setBusy(true);
    setError(null);
    try {
      const next = await revokeSeat(team.purchaseId, member.purchaseId);
      onChanged(
        next,
        member.you
          ? 'You gave up your seat. It is free again.'
          : `${member.email} no longer has a seat. It is free again, and we emailed them. They cannot take a seat through the invite link unless you let them back in.`,
      );
    } catch (caught) {
      if (isApiError(caught, 'not-found')) {
        // Revoked elsewhere already: show the team as it is now.
        try {
          return onChanged(await getTeam(team.purchaseId), `${member.email} had already lost their seat.`);
        } catch {
          // fall through to the message below
        }
      }
      setBusy(false);
      setError(`We could not revoke the seat: ${caught instanceof Error ? caught.message : 'something went wrong. Please try again.'}`);
    }
  }

  function cancel() {
    setConfirming(false);
    setError(null);
    requestAnimationFrame(() => revokeRef.current?.focus());
  }

  return (
    <tr>
      <th scope="row">
        {member.name ?? '—'}
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
            <div className="actions">
              <button ref={confirmRef} type="button" className="button-danger" onClick={handleRevoke} disabled={busy}>
                Yes, revoke
              </button>
              <button type="button" className="button-quiet" onClick={cancel} disabled={busy}>
                Cancel
              </button>
              <BusyStatus busy={busy} text="Revoking…" />
            </div>
            <FieldAlert error={error} />
          </div>
        ) : (
          <button ref={revokeRef} type="button" className="button-quiet" onClick={() => setConfirming(true)}>
            Revoke<span className="visually-hidden"> {who} seat</span>
          </button>
        )}
      </td>
    </tr>
  );
}
