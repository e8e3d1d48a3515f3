import { useState, type RefObject } from 'react';
import { isApiError } from '../../api/client';
import { getTeam, readmit, type RevokedMember, type TeamView } from '../../api/teams';
import { formatDate } from '../../format';
import { BusyStatus, FieldAlert } from '../../ActionFeedback';
import { PeopleTable } from './PeopleTable';
import { failedTo } from '../../useConfirmation';
import { shownName } from '../../../../api/src/shared/shown-name';

interface Props {
  team: TeamView;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onChanged: (team: TeamView, message: string) => void;
}

/**
 * The people the owner removed from the team: the invite link refuses them until they are let back in. Letting
 * someone back in takes no seat: they take one through the link, like anyone else.
 */
export function RevokedList({ team, headingRef, onChanged }: Props) {
  if (team.revoked.length === 0) return null;
  return (
    <section className="team-section" aria-labelledby="team-revoked">
      <h2 id="team-revoked" ref={headingRef} tabIndex={-1}>
        {team.gift ? 'Gift taken back from' : 'Removed from the team'}
      </h2>
      <p className="hint">
        {team.gift
          ? 'These people lost the course and the claim link does not let them claim it again. Let someone back in and they can claim it through the link again (if nobody has meanwhile).'
          : 'These people lost their seat and cannot take one again through the invite link. Let someone back in and they can take a seat through the link again (if one is free).'}
      </p>
      <PeopleTable
        caption={team.gift ? 'People the gift was taken back from' : 'People removed from your team'}
        when={team.gift ? 'Taken back' : 'Removed'}
      >
        {team.revoked.map((person) => (
          <RevokedRow key={person.userId} team={team} person={person} onChanged={onChanged} />
        ))}
      </PeopleTable>
    </section>
  );
}

function RevokedRow({
  team,
  person,
  onChanged,
}: {
  team: TeamView;
  person: RevokedMember;
  onChanged: Props['onChanged'];
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const who = person.name ?? person.email;

  async function handleReadmit() {
    setBusy(true);
    setError(null);
    try {
      const next = await readmit(team.purchaseId, person.userId);
      onChanged(
        next,
        team.gift
          ? `${person.email} may claim the gift again: send them the claim link.`
          : `${person.email} may take a seat again: send them the invite link.`,
      );
    } catch (caught) {
      if (isApiError(caught, 'not-found')) {
        // Let back in elsewhere already (another tab): show the team as it is now.
        try {
          return onChanged(await getTeam(team.purchaseId), `${person.email} had already been let back in.`);
        } catch {
          // fall through to the message below
        }
      }
      setBusy(false);
      setError(failedTo(`let ${who} back in`)(caught));
    }
  }

  return (
    <tr>
      <th scope="row">{shownName({ id: person.userId, name: person.name })}</th>
      <td className="member-email">{person.email}</td>
      <td>
        <span className="narrow-label">{team.gift ? 'Taken back ' : 'Removed '}</span>
        <time dateTime={person.revokedAt}>{formatDate(person.revokedAt)}</time>
      </td>
      <td className="member-actions">
        <div className="actions actions-end">
          <button type="button" className="button-quiet" onClick={handleReadmit} disabled={busy}>
            Let back in<span className="visually-hidden"> {who}</span>
          </button>
          <BusyStatus busy={busy} text="Letting them back in…" />
        </div>
        <FieldAlert error={error} />
      </td>
    </tr>
  );
}
