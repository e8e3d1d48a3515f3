import { useId, useState, type FormEvent } from 'react';
import { DISPLAY_NAME_LENGTH } from '../../../../api/src/shared/display-name';
import { FieldAlert } from '../../ActionFeedback';
import { isApiError } from '../../api/client';
import { correctCertificateName, type MyCertificate } from '../../api/certificates';
import { useAction } from '../../useAction';

const { min, max } = DISPLAY_NAME_LENGTH;

/**
 * The holder's one correction of the name on their certificate (a typo, a name written in its own script). Behind a
 * button, because it can be done once: the form says so before it is sent.
 */
export function CorrectNameForm({
  certificate,
  corrected,
}: {
  certificate: MyCertificate;
  corrected: (certificate: MyCertificate) => void;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(certificate.learnerName);
  const { busy, error, setError, run } = useAction((caught) =>
    isApiError(caught) && caught.body.errors?.name ? `The name ${caught.body.errors.name}.` : (caught as Error).message,
  );

  if (!open) {
    return (
      <p className="actions">
        <button type="button" className="button-quiet" onClick={() => setOpen(true)}>
          Correct the name
        </button>
      </p>
    );
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const trimmed = name.trim().replace(/\s+/g, ' ');
    if (trimmed.length < min || trimmed.length > max) {
      return setError(`A name needs ${min} to ${max} characters.`);
    }
    await run(async () => corrected(await correctCertificateName(certificate.id, trimmed)));
  }

  return (
    <form className="certificate-correct" onSubmit={save} noValidate>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name on the certificate</label>
        <p id={`${id}-hint`} className="hint">
          You can correct it once; the certificate page will say it was corrected, and when. Your display name in
          Settings does not change.
        </p>
        <input
          id={`${id}-name`}
          type="text"
          autoComplete="name"
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
          {busy ? 'Saving…' : 'Save the corrected name'}
        </button>
        <button type="button" className="button-quiet" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
