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
 * The team's invite link (a gift's claim link), ready to copy, and "Replace the invite link" (after a confirmation)
 * for a link that went further than it should have.
 */
export function InviteLink({ team, onReset }: Props) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const words = wordsOf(team);
  return (
    <section className="team-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{words.heading}</h2>
      <CopyLinkField label={words.label} url={team.inviteUrl} inputRef={inputRef} hint={words.hint} />
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

/** A team's link invites people to its seats; a gift's is the claim link its buyer sends to one person. */
function wordsOf(team: TeamView) {
  if (team.gift) {
    return {
      heading: 'The claim link to send',
      label: 'Claim link',
      hint: 'Send it to the person you are giving the course to. One person can claim it: whoever opens it first and signs in gets the course.',
      replace: 'Replace the claim link',
      replaceHint: 'If the link went to the wrong person, replace it before anyone claims it: only the new link works.',
      question: 'Replace the claim link?',
      consequence:
        'The current link stops working at once: anyone who opens it is told it is not valid. Send the new link to the person the gift is for.',
      replaced: 'The claim link was replaced. The old link no longer works: send the new one.',
    };
  }
  return {
    heading: 'Invite people',
    label: 'Invite link',
    hint:
      team.seats.free === 0
        ? 'Every seat is taken: buy more seats below before you invite anyone else.'
        : 'Share this link with your team. Each person who opens it and signs in takes one seat.',
    replace: 'Replace the invite link',
    replaceHint: 'If the link reached people it should not have, replace it: only the new link lets people in.',
    question: 'Replace the invite link?',
    consequence:
      'The current link stops working at once: anyone who opens it is told it is not valid. People who already have a seat keep it. Share the new link with those who still need to join.',
    replaced: 'The invite link was replaced. The old link no longer works: share the new one.',
  };
}

/** "Replace the invite link", then a confirmation that says what happens to the old one. */
function ReplaceLink({ team, onReset }: Props) {
  const id = useId();
  const words = wordsOf(team);
  const { confirming, ask, startRef, actions } = useConfirmation(
    async () => onReset(await resetInviteLink(team.purchaseId), words.replaced),
    failedTo('replace the link'),
  );

  if (!confirming) {
    return (
      <div className="replace-link">
        <button ref={startRef} type="button" className="button-quiet" onClick={ask}>
          {words.replace}
        </button>
        <p className="hint">{words.replaceHint}</p>
      </div>
    );
  }
  return (
    <div className="replace-link replace-confirm" role="group" aria-labelledby={`${id}-question`}>
      <p id={`${id}-question`}>
        <strong>{words.question}</strong> {words.consequence}
      </p>
      <ConfirmActions {...actions} label="Yes, replace the link" busyText="Replacing the link…" />
    </div>
  );
}
