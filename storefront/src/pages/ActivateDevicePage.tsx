import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'wouter';
import { ApiError, isApiError } from '../api/client';
import { decideOnDevice, lookUpDeviceCode, type DeviceDecision, type PendingDevice } from '../api/devices';
import type { StoreUser } from '../api/identity';
import { formatWait } from '../format';
import { RequireSignIn } from '../RequireSignIn';
import { useSession } from '../session';
import { useFocusOnChange } from '../useFocusOnChange';
import { ActionButton, FieldAlert } from '../ActionFeedback';
import { useDocumentTitle } from '../useDocumentTitle';

type Step =
  | { kind: 'enter-code'; error: string | null }
  | { kind: 'confirm'; device: PendingDevice }
  | { kind: 'approved'; device: PendingDevice }
  | { kind: 'denied'; device: PendingDevice };

/** /activate?user_code=…: a signed-in learner approves (or denies) a device that shows a code. */
export function ActivateDevicePage() {
  useDocumentTitle('Connect a device');
  return <RequireSignIn>{(user) => <ActivateDevice user={user} />}</RequireSignIn>;
}

function ActivateDevice({ user }: { user: StoreUser }) {
  const [params] = useSearchParams();
  const [code, setCode] = useState(params.get('user_code') ?? '');
  const [step, setStep] = useState<Step>({ kind: 'enter-code', error: null });
  const headingRef = useFocusOnChange<HTMLHeadingElement>(step.kind);
  const { refresh } = useSession();

  /** Back to the code form with the error in words; a lapsed session sends the person to sign in again. */
  function showError(error: unknown) {
    setStep({ kind: 'enter-code', error: explainDeviceError(error) });
    if (isApiError(error, 'unauthenticated')) refresh();
  }

  switch (step.kind) {
    case 'enter-code':
      return (
        <section className="narrow">
          <h1 ref={headingRef} tabIndex={-1}>
            Enter the code shown on your device
          </h1>
          <DeviceCodeForm
            code={code}
            onCodeChange={setCode}
            error={step.error}
            onSubmit={async () => {
              if (!code.trim()) return setStep({ kind: 'enter-code', error: 'Enter the code your device shows.' });
              setStep({ kind: 'enter-code', error: null });
              try {
                setStep({ kind: 'confirm', device: await lookUpDeviceCode(code.trim()) });
              } catch (caught) {
                showError(caught);
              }
            }}
          />
        </section>
      );
    case 'confirm':
      return (
        <section className="narrow">
          <h1 ref={headingRef} tabIndex={-1}>
            Approve this device?
          </h1>
          <ApproveDevice
            device={step.device}
            email={user.email}
            onDecided={(status) => setStep({ kind: status, device: step.device })}
            onError={showError}
          />
        </section>
      );
    case 'approved':
      return (
        <section className="narrow">
          <h1 ref={headingRef} tabIndex={-1}>
            Device approved
          </h1>
          <p role="status">Device approved. You can return to your device.</p>
          <p>
            You can sign it out any time from <Link to="/devices">My devices</Link>.
          </p>
        </section>
      );
    case 'denied':
      return (
        <section className="narrow">
          <h1 ref={headingRef} tabIndex={-1}>
            Request denied
          </h1>
          <p role="status">Request denied. The device will not be signed in.</p>
          <p>If you did not start this sign-in yourself, there is nothing else to do: your account is safe.</p>
        </section>
      );
  }
}

function DeviceCodeForm(props: {
  code: string;
  onCodeChange: (code: string) => void;
  error: string | null;
  onSubmit: () => Promise<void>;
}) {
  const id = useId();
  const [busy, setBusy] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    await props.onSubmit();
    setBusy(false);
  }

  return (
    <form onSubmit={handleSubmit} noValidate className="stack" aria-busy={busy}>
      <div className="field">
        <label htmlFor={`${id}-code`}>Device code</label>
        <input
          id={`${id}-code`}
          name="user_code"
          className="code-input"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={20}
          value={props.code}
          onChange={(event) => props.onCodeChange(event.target.value)}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={`${id}-hint${props.error ? ` ${id}-error` : ''}`}
        />
        <p id={`${id}-hint`} className="hint">
          Eight letters, like BCDF-GHJK. Only enter a code from a device you are signing in yourself.
        </p>
        <FieldAlert id={`${id}-error`} error={props.error} />
      </div>
      <ActionButton busy={busy} busyText="Checking the code…" type="submit">
        Continue
      </ActionButton>
    </form>
  );
}

function ApproveDevice(props: {
  device: PendingDevice;
  email: string;
  onDecided: (status: DeviceDecision['status']) => void;
  onError: (error: unknown) => void;
}) {
  const [busy, setBusy] = useState<'approve' | 'deny' | null>(null);

  async function decide(decision: 'approve' | 'deny') {
    setBusy(decision);
    try {
      props.onDecided((await decideOnDevice(props.device.userCode, decision)).status);
    } catch (caught) {
      setBusy(null);
      props.onError(caught);
    }
  }

  return (
    <>
      <p>
        <strong>{props.device.clientName}</strong> wants to sign in to your account <strong>{props.email}</strong>.
      </p>
      <p className="hint">
        Code <span className="code">{props.device.userCode}</span>. Approve only if you started this sign-in and your
        device shows the same code.
      </p>
      <div className="actions">
        <button type="button" onClick={() => decide('approve')} disabled={busy !== null}>
          Approve
        </button>
        <button type="button" className="button-quiet" onClick={() => decide('deny')} disabled={busy !== null}>
          Deny
        </button>
        <span role="status" className={busy ? 'loading' : undefined}>
          {busy === 'approve' ? 'Approving…' : busy === 'deny' ? 'Denying…' : ''}
        </span>
      </div>
    </>
  );
}

function explainDeviceError(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Something went wrong. Please try again.';
  switch (error.code) {
    case 'device-code-not-found':
      return 'That code is not right: no device is waiting for it. Check the code your device shows and try again.';
    case 'device-code-expired':
      return 'That code has expired (codes last 10 minutes). Start the sign-in again on your device to get a new code.';
    case 'device-code-already-used':
      return 'That code was already approved or denied. To sign the device in again, start over on the device.';
    case 'rate-limited':
      return `Too many wrong codes were entered. Please wait ${formatWait(error.retryAfterSeconds)} and try again.`;
    case 'unauthenticated':
      return 'Your session has ended. Sign in again to continue.';
    case 'validation-failed':
      return error.body.errors?.userCode ? `Device code: ${error.body.errors.userCode}.` : error.message;
    default:
      return error.message;
  }
}
