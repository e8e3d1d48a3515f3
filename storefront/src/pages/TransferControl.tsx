import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ApiError, isApiError } from '../api/client';
import type { MyPurchase } from '../api/purchases';
import { cancelTransfer, getPurchaseTransfer, offerTransfer, type TransferView } from '../api/transfers';
import { formatDateTimeWithZone } from '../format';
import { useAsync } from '../useAsync';
import { BusyStatus, describedBy, EmailInput, ErrorOrHint, FieldAlert } from '../ActionFeedback';
import { failedTo } from '../useConfirmation';
import { useAction } from '../useAction';
import { isOpenTransfer } from '../../../api/src/shared/transfer-states';

/**
 * Only a valid, individual purchase can be given away (docs/domain.md §8); the API says whether its window is still
 * open.
 */
export function mayTransfer(purchase: MyPurchase): boolean {
  return purchase.status === 'Valid' && !purchase.team && !purchase.seat;
}

/**
 * "Give to someone else" on a purchase card: the email form while the purchase may be given away, "Offered to …"
 * with Cancel once it is offered. Shows nothing for purchases that cannot be given away.
 */
export function TransferControl({ purchase, titleId }: { purchase: MyPurchase; titleId: string }) {
  const loaded = useAsync(() => getPurchaseTransfer(purchase.id), [purchase.id]);
  const [changed, setChanged] = useState<TransferView | null | undefined>(undefined);
  const [announcement, setAnnouncement] = useState('');
  // After the owner's own action the pressed control is gone, so the new one takes focus; never on page load.
  const [acted, setActed] = useState(false);
  const transfer = changed !== undefined ? changed : loaded.status === 'ready' ? loaded.data : null;

  if (loaded.status === 'error' && changed === undefined) {
    // Someone else's purchase or a refused one says nothing; a failed request offers another try.
    if (loaded.error instanceof ApiError && loaded.error.status >= 400 && loaded.error.status < 500) return null;
    return (
      <div className="purchase-transfer">
        <p className="hint">
          We could not check whether you can give this course to someone else.{' '}
          <button type="button" className="button-quiet" onClick={loaded.retry} aria-describedby={titleId}>
            Try again
          </button>
        </p>
      </div>
    );
  }

  function update(next: TransferView | null, message: string) {
    setChanged(next);
    setAnnouncement(message);
    setActed(true);
  }

  const open = transfer && isOpenTransfer(transfer.state);
  if (!open && !announcement) return null;
  return (
    <div className="purchase-transfer">
      {transfer?.state === 'AVAILABLE' && (
        <GiveAway
          transfer={transfer}
          titleId={titleId}
          takeFocus={acted}
          onOffered={(next) => update(next, `Offer sent to ${next.recipientEmail}.`)}
          onGone={(message) => update(null, message)}
        />
      )}
      {(transfer?.state === 'INITIATED' || transfer?.state === 'VERIFIED') && (
        <Offered
          transfer={transfer}
          titleId={titleId}
          takeFocus={acted}
          onCanceled={(next) => update(next, 'Offer canceled. The course stays yours.')}
          onGone={(message) => update(null, message)}
        />
      )}
      {transfer?.state === 'CONFIRMED' && <p>Being handed over to {transfer.recipientEmail}…</p>}
      <p role="status" className="status-message">
        {announcement}
      </p>
    </div>
  );
}

function GiveAway({
  transfer,
  titleId,
  takeFocus,
  onOffered,
  onGone,
}: {
  transfer: TransferView;
  titleId: string;
  takeFocus: boolean;
  onOffered: (transfer: TransferView) => void;
  onGone: (message: string) => void;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const deadline = <time dateTime={transfer.expiresAt}>{formatDateTimeWithZone(transfer.expiresAt)}</time>;

  useEffect(() => {
    if (open) emailRef.current?.focus();
  }, [open]);

  useEffect(() => {
    if (takeFocus) toggleRef.current?.focus(); // back from a canceled offer
  }, []); // on mount only

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const address = email.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)) {
      setError(
        address
          ? 'Enter a valid email address, like name@example.com.'
          : 'Enter the email address of the person you are giving the course to.',
      );
      emailRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onOffered(await offerTransfer(transfer.purchaseId, address));
    } catch (caught) {
      setBusy(false);
      if (isApiError(caught, 'transfer-expired'))
        return onGone('The time to give this course away has passed. It stays yours.');
      if (isApiError(caught, 'transfer-not-available'))
        return onGone(`This course can no longer be given away: ${caught.message}`);
      if (isApiError(caught, 'already-purchased')) setError(caught.message);
      else if (caught instanceof ApiError && caught.body.errors?.email) setError(`Email ${caught.body.errors.email}.`);
      else setError(failedTo('send the offer')(caught));
      emailRef.current?.focus();
    }
  }

  function close() {
    setOpen(false);
    setError(null);
    requestAnimationFrame(() => toggleRef.current?.focus());
  }

  if (!open) {
    return (
      <p className="transfer-line">
        <button
          ref={toggleRef}
          type="button"
          className="button-quiet"
          onClick={() => setOpen(true)}
          aria-describedby={titleId}
        >
          Give to someone else
        </button>{' '}
        <span className="hint">Possible until {deadline}.</span>
      </p>
    );
  }

  return (
    <form className="stack transfer-form" onSubmit={handleSubmit} noValidate aria-busy={busy}>
      <p className="transfer-title">Give this course to someone else</p>
      <div className="field">
        <label htmlFor={`${id}-email`}>Recipient’s email</label>
        <div className="inline-controls">
          <EmailInput
            ref={emailRef}
            id={`${id}-email`}
            autoComplete="off"
            value={email}
            onChange={setEmail}
            invalid={!!error}
            describedBy={describedBy(id, error)}
          />
          <button type="submit" aria-disabled={busy || undefined}>
            Send
          </button>
          <button type="button" className="button-quiet" onClick={close} disabled={busy}>
            Cancel
          </button>
        </div>
        <ErrorOrHint id={id} error={error}>
          We email them a link to accept. Once they do, the course and its invoice are theirs and you lose access. You
          can give it away until {deadline}.
        </ErrorOrHint>
        <BusyStatus busy={busy} text="Sending the offer…" />
      </div>
    </form>
  );
}

function Offered({
  transfer,
  titleId,
  takeFocus,
  onCanceled,
  onGone,
}: {
  transfer: TransferView;
  titleId: string;
  takeFocus: boolean;
  onCanceled: (transfer: TransferView) => void;
  onGone: (message: string) => void;
}) {
  const { busy, error, run } = useAction((caught) => {
    if (!isApiError(caught, 'transfer-expired')) return failedTo('cancel the offer')(caught);
    onGone('The offer expired, and so has the time to give this course away. It stays yours.');
    return null;
  });
  const summaryRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (takeFocus) summaryRef.current?.focus(); // the form that sent the offer is gone: land on what happened
  }, []); // on mount only

  const handleCancel = () => run(async () => onCanceled(await cancelTransfer(transfer.id)));

  return (
    <div className="transfer-offered">
      <p ref={summaryRef} tabIndex={-1}>
        <strong>Offered to {transfer.recipientEmail}</strong>
        {transfer.state === 'VERIFIED' ? ' (they have opened the link)' : ''}. They can accept until{' '}
        <time dateTime={transfer.expiresAt}>{formatDateTimeWithZone(transfer.expiresAt)}</time>; until then the course
        stays yours.
      </p>
      <div className="actions">
        <button
          type="button"
          className="button-quiet"
          onClick={handleCancel}
          disabled={busy}
          aria-describedby={titleId}
        >
          Cancel offer
        </button>
        <BusyStatus busy={busy} text="Canceling…" />
      </div>
      <FieldAlert error={error} />
    </div>
  );
}
