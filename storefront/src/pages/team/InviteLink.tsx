import { useEffect, useId, useRef, useState } from 'react';

type CopyOutcome = 'copied' | 'failed' | null;

/** How long "Copied" stays before the status clears (so copying again is announced again). */
const COPIED_FOR_MS = 4000;

/** The team's invite link in a read-only field, with a Copy button that says whether it worked. */
export function InviteLink({ url, full }: { url: string; full: boolean }) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [outcome, setOutcome] = useState<CopyOutcome>(null);

  useEffect(() => {
    if (outcome !== 'copied') return;
    const timer = setTimeout(() => setOutcome(null), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [outcome]);

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
          {outcome === 'copied' ? 'Copied' : outcome === 'failed' ? 'Could not copy the link: it is selected, so press Ctrl+C (⌘C on a Mac) to copy it.' : ''}
        </p>
      </div>
    </section>
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
