import { useId, useState, type FormEvent } from 'react';
import { DISPLAY_NAME_LENGTH } from '../../../api/src/shared/display-name';
import { defaultName } from '../../../api/src/shared/shown-name';
import { FieldAlert } from '../ActionFeedback';
import { isApiError } from '../api/client';
import { putDisplayName } from '../api/profile';
import { useSession } from '../session';
import { useAction } from '../useAction';

const { min, max } = DISPLAY_NAME_LENGTH;

/** Why a name cannot be saved as typed, or null (the API says the same, this saves a round trip). */
function problemWith(name: string): string | null {
  const trimmed = name.trim().replace(/\s+/g, ' ');
  if (trimmed.length > 0 && trimmed.length < min) return `A display name needs at least ${min} characters.`;
  if (trimmed.length > max) return `A display name can be at most ${max} characters.`;
  return null;
}

/** The name shown on the learner's comments: saved when they press Save, cleared when emptied. */
export function DisplayNameForm({ current, userId }: { current: string | null; userId: string }) {
  const id = useId();
  const fallback = defaultName(userId);
  const { signedIn } = useSession();
  const [name, setName] = useState(current ?? '');
  const [saved, setSaved] = useState<string | null>(null);
  const { busy, error, setError, run } = useAction((caught) =>
    isApiError(caught) && caught.body.errors?.name ? `The name ${caught.body.errors.name}.` : (caught as Error).message,
  );

  async function save(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const problem = problemWith(name);
    setSaved(null);
    if (problem) return setError(problem);
    await run(async () => {
      const user = await putDisplayName(name);
      signedIn(user);
      setName(user.name ?? '');
      setSaved(
        user.name ? `Saved. Your comments show as ${user.name}.` : `Saved. Your comments show as “${fallback}”.`,
      );
    });
  }

  return (
    <form className="settings-group display-name" onSubmit={save} noValidate>
      <div className="field">
        <label htmlFor={`${id}-name`}>Display name</label>
        <p id={`${id}-hint`} className="hint">
          Shown on your comments and on the certificates you earn from now on (one already issued keeps its name:
          correct it on the certificate’s page). Leave it empty to appear as “{fallback}” (certificates then show your
          email’s name).
        </p>
        <input
          id={`${id}-name`}
          type="text"
          autoComplete="nickname"
          value={name}
          maxLength={max + 20}
          onChange={(event) => setName(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        />
        <FieldAlert id={`${id}-error`} error={error} />
      </div>
      <div className="actions">
        <button type="submit" aria-disabled={busy || undefined}>
          {busy ? 'Saving…' : 'Save name'}
        </button>
        <span role="status">{saved}</span>
      </div>
    </form>
  );
}
