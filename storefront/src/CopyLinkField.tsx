import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';

type CopyOutcome = 'copied' | 'failed' | null;

/** How long "Copied" stays before the status clears (so copying again is announced again). */
const COPIED_FOR_MS = 4000;

interface Props {
  label: string;
  url: string;
  hint: ReactNode;
  /** For a caller that moves focus to the field (focusing it selects it, ready to copy). */
  inputRef?: RefObject<HTMLInputElement | null>;
}

/** A link in a read-only field with a Copy button that says whether it worked (and what to do when it did not). */
export function CopyLinkField({ label, url, hint, inputRef: given }: Props) {
  const id = useId();
  const own = useRef<HTMLInputElement>(null);
  const inputRef = given ?? own;
  const [outcome, setOutcome] = useState<CopyOutcome>(null);

  useEffect(() => {
    if (outcome !== 'copied') return;
    const timer = setTimeout(() => setOutcome(null), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [outcome]);

  // A replaced link lands in the focused field: keep it selected, and what was said of the old one goes.
  useEffect(() => {
    setOutcome(null);
    if (document.activeElement === inputRef.current) inputRef.current?.select();
  }, [url, inputRef]);

  async function handleCopy() {
    setOutcome(null);
    setOutcome((await copyText(url, inputRef.current)) ? 'copied' : 'failed');
  }

  return (
    <div className="field">
      <label htmlFor={`${id}-link`}>{label}</label>
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
        {hint}
      </p>
      <p role="status" aria-live="polite" className={outcome === 'failed' ? 'field-error' : 'copy-status'}>
        {outcome === 'copied'
          ? 'Copied'
          : outcome === 'failed'
            ? 'Could not copy the link: it is selected, so press Ctrl+C (⌘C on a Mac) to copy it.'
            : ''}
      </p>
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
