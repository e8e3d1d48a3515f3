import { BusyStatus } from '../../ActionFeedback';

/** The Buy button with its "Starting checkout…" status, and the error of a checkout that could not start. */
export function CheckoutSubmit({
  label,
  busy,
  error,
  className,
}: {
  label: string;
  busy: boolean;
  error: string | null;
  className?: string;
}) {
  return (
    <>
      <div className="actions">
        <button type="submit" className={className} aria-disabled={busy || undefined}>
          {label}
        </button>
        <BusyStatus busy={busy} text="Starting checkout…" />
      </div>
      {error && (
        <p role="alert" className="notice notice-error">
          {error}
        </p>
      )}
    </>
  );
}
