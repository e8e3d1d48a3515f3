import { BusyStatus } from '../../ActionFeedback';
import { CheckoutTerms } from './CheckoutTerms';

/**
 * The Buy button with its "Starting checkout…" status, what buying agrees to, and the error of a checkout that could
 * not start.
 */
export function CheckoutSubmit({
  label,
  busy,
  error,
  className,
  refundPolicy,
}: {
  label: string;
  busy: boolean;
  error: string | null;
  className?: string;
  /** The page shows a refund policy (#refund-heading): the line points to it. */
  refundPolicy?: boolean;
}) {
  return (
    <>
      <div className="actions">
        <button type="submit" className={className} aria-disabled={busy || undefined}>
          {label}
        </button>
        <BusyStatus busy={busy} text="Starting checkout…" />
      </div>
      <CheckoutTerms refundPolicy={refundPolicy} />
      {error && (
        <p role="alert" className="notice notice-error">
          {error}
        </p>
      )}
    </>
  );
}
