/**
 * What a button's action says while it runs and when it fails, the same everywhere: a polite live region that
 * names the work in progress, and an alert under the control.
 */
export function BusyStatus({ busy, text }: { busy: boolean; text: string }) {
  return (
    <span role="status" className={busy ? 'loading' : undefined}>
      {busy ? text : ''}
    </span>
  );
}

export function FieldAlert({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" className="field-error">
      {error}
    </p>
  ) : null;
}
