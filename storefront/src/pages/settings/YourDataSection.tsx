import { useId, useState, type FormEvent } from 'react';
import { ActionButton, FieldAlert } from '../../ActionFeedback';
import { isApiError } from '../../api/client';
import { deleteAccount, downloadPersonalData, saveFile } from '../../api/personal-data';
import { useAction } from '../../useAction';

/** Where a deleted account lands: a full page load, so nothing of the session stays in memory. */
const ACCOUNT_DELETED_PATH = '/account-deleted';

/**
 * Settings → Your data: a download of everything held about the person, and deleting their account after typing
 * their email again (docs/domain.md §16). Support viewing the account sees neither action: both are the person's.
 */
export function YourDataSection({ email, viewAs }: { email: string; viewAs: boolean }) {
  const id = useId();
  return (
    <section className="settings-group your-data" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Your data</h2>
      {viewAs ? (
        <p className="hint">Only the person can download their data or delete their account.</p>
      ) : (
        <>
          <DownloadData />
          <DeleteAccount email={email} />
        </>
      )}
    </section>
  );
}

function DownloadData() {
  const [saved, setSaved] = useState<string | null>(null);
  const { busy, error, run } = useAction((caught) => `We could not prepare your file: ${(caught as Error).message}`);

  async function download() {
    setSaved(null);
    await run(async () => {
      const file = await downloadPersonalData();
      saveFile(file);
      setSaved(`Downloaded ${file.filename}.`);
    });
  }

  return (
    <div className="your-data-download">
      <p className="hint">
        A copy of everything we hold about you, as one JSON file: your profile, purchases and teams, transfers,
        progress, comments, bookmarks, certificates, the emails we sent you and where you are signed in.
      </p>
      <ActionButton busy={busy} busyText="Preparing your file…" onClick={download}>
        Download your data
      </ActionButton>
      <p role="status" className="save-status">
        {saved}
      </p>
      <FieldAlert error={error} />
    </div>
  );
}

function DeleteAccount({ email }: { email: string }) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const { busy, error, setError, run } = useAction((caught) =>
    isApiError(caught, 'confirmation-mismatch')
      ? 'That is not your email address. Type it exactly as shown to confirm.'
      : isApiError(caught, 'account-is-staff')
        ? 'Staff accounts cannot be deleted here. Ask an administrator to remove your staff roles first.'
        : (caught as Error).message,
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (typed.trim().toLowerCase() !== email.toLowerCase()) {
      setError('That is not your email address. Type it exactly as shown to confirm.');
      return;
    }
    const done = await run(() => deleteAccount(typed));
    if (done) window.location.assign(ACCOUNT_DELETED_PATH);
  }

  return (
    <form className="your-data-delete stack" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Delete your account</h3>
      <div id={`${id}-warning`} className="notice notice-error">
        <p>
          <strong>This cannot be undone.</strong> You are signed out everywhere and lose access to your courses. Your
          name, email, progress, bookmarks, certificates and comments are removed (a comment others replied to stays,
          its text replaced). A seat you hold in a team goes back to the team.
        </p>
        <p>
          We keep the records of your purchases, payments and refunds, without your name or email, because the law
          requires us to keep accounting records.
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${id}-confirm`}>
          To confirm, type your email address: <strong>{email}</strong>
        </label>
        <input
          id={`${id}-confirm`}
          type="email"
          inputMode="email"
          autoComplete="off"
          spellCheck={false}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-warning${error ? ` ${id}-error` : ''}`}
        />
        <FieldAlert id={`${id}-error`} error={error} />
      </div>
      <ActionButton type="submit" className="button-danger" busy={busy} busyText="Deleting your account…">
        Delete my account
      </ActionButton>
    </form>
  );
}
