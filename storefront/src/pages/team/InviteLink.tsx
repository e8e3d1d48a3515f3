import { useEffect, useId, useRef, useState } from 'react';
import { resetInviteLink, type TeamView } from '../../api/teams';
import { ConfirmActions } from '../../ActionFeedback';
import { failedTo, useConfirmation } from '../../useConfirmation';

type CopyOutcome = 'copied' | 'failed' | null;

/** How long "Copied" stays before the status clears (so copying again is announced again). */
const COPIED_FOR_MS = 4000;

interface Props {
  team: TeamView;
  /** The link was replaced: the team as it is now, and what to announce. */
  onReset: (team: TeamView, message: string) => void;
}

/**
 * The team's invite link in a read-only field, with a Copy button that says whether it worked, and "Replace the
 * invite link" (after a confirmation) for a link that went further than it should have.
 */
export function InviteLink({ team, onReset }: Props) {
  const id = useId();
  const url = team.inviteUrl;
  const full = team.seats.free === 0;
  const inputRef = useRef<HTMLInputElement>(null);
  const [outcome, setOutcome] = useState<CopyOutcome>(null);

  useEffect(() => {
    if (outcome !== 'copied') return;
    const timer = setTimeout(() => setOutcome(null), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [outcome]);

  // A replaced link lands in the focused field: keep it selected, ready to copy.
  useEffect(() => {
    if (document.activeElement === inputRef.current) inputRef.current?.select();
  }, [url]);

  async function handleCopy() {
    setOutcome(null);
    setOutcome((await copyText(url, inputRef.current)) ? 'copied' : 'failed');
  }

  return (
    <section className="team-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Invite people</h2>
      <div className="field">
        <label htmlFor={`${id}-link`}>Invite link</label>
        <div className="inline-controls">
          <input
            ref={inputRef}
            id={`${id}-link`}
            className="invite-link"
            type="text"
            readOnly
            value={url}
            onFocus={(event) => event.target.select()}
            aria-describedby={`${id}-hint`}
          />
          <button type="button" className="button-quiet" onClick={handleCopy}>
            Copy
          </button>
        </div>
        <p id={`${id}-hint`} className="hint">
          {full
            ? 'Every seat is taken: buy more seats below before you invite anyone else.'
            : 'Share this link with your team. Each person who opens it and signs in takes one seat.'}
        </p>
        <p role="status" aria-live="polite" className={outcome === 'failed' ? 'field-error' : 'copy-status'}>
          {outcome === 'copied'
            ? 'Copied'
            : outcome === 'failed'
              ? 'Could not copy the link: it is selected, so press Ctrl+C (⌘C on a Mac) to copy it.'
              : ''}
        </p>
      </div>
      <ReplaceLink
        team={team}
        onReset={(next, message) => {
          setOutcome(null);
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

/** The Clipboard API where the browser allows it; otherwise the old select-and-copy on the field itself. */
async function copyText(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Not allowed here (an insecure origin, a denied permission): try the fallback.
  }
  if (!field) return false;
  field.focus();
  field.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  }
}
