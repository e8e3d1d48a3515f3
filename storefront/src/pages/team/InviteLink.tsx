import { useId, useRef } from 'react';
import { resetInviteLink, type TeamView } from '../../api/teams';
import { ConfirmActions } from '../../ActionFeedback';
import { CopyLinkField } from '../../CopyLinkField';
import { failedTo, useConfirmation } from '../../useConfirmation';

interface Props {
  team: TeamView;
  /** The link was replaced: the team as it is now, and what to announce. */
  onReset: (team: TeamView, message: string) => void;
}

/**
 * The team's invite link, ready to copy, and "Replace the invite link" (after a confirmation) for a link that went
 * further than it should have.
 */
export function InviteLink({ team, onReset }: Props) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  return (
    <section className="team-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Invite people</h2>
      <CopyLinkField
        label="Invite link"
        url={team.inviteUrl}
        inputRef={inputRef}
        hint={
          team.seats.free === 0
            ? 'Every seat is taken: buy more seats below before you invite anyone else.'
            : 'Share this link with your team. Each person who opens it and signs in takes one seat.'
        }
      />
      <ReplaceLink
        team={team}
        onReset={(next, message) => {
          onReset(next, message);
          // The confirmation goes: land on the link, which shows the new one (focusing it selects it, ready to copy).
          inputRef.current?.focus();
        }}
      />
    </section>
  );
}

/** "Replace the invite link", then a confirmation that says what happens to the old one. */
function ReplaceLink({ team, onReset }: Props) {
  const id = useId();
  const { confirming, ask, startRef, actions } = useConfirmation(
    async () =>
      onReset(
        await resetInviteLink(team.purchaseId),
        'The invite link was replaced. The old link no longer works: share the new one.',
      ),
    failedTo('replace the link'),
  );

  if (!confirming) {
    return (
      <div className="replace-link">
        <button ref={startRef} type="button" className="button-quiet" onClick={ask}>
          Replace the invite link
        </button>
        <p className="hint">
          If the link reached people it should not have, replace it: only the new link lets people in.
        </p>
      </div>
    );
  }
  return (
    <div className="replace-link replace-confirm" role="group" aria-labelledby={`${id}-question`}>
      <p id={`${id}-question`}>
        <strong>Replace the invite link?</strong> The current link stops working at once: anyone who opens it is told it
        is not valid. People who already have a seat keep it. Share the new link with those who still need to join.
      </p>
      <ConfirmActions {...actions} label="Yes, replace the link" busyText="Replacing the link…" />
    </div>
  );
}
