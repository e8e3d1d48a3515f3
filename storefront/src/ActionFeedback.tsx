import type { ReactNode, Ref, RefObject } from 'react';

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

/**
 * The button that starts an action, with the action's progress beside it (disabled while it runs, so a second
 * press cannot start it twice).
 */
export function ActionButton(props: {
  busy: boolean;
  busyText: string;
  onClick?: () => void;
  type?: 'button' | 'submit';
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className="actions">
      <button type={props.type ?? 'button'} className={props.className} onClick={props.onClick} disabled={props.busy}>
        {props.children}
      </button>
      <BusyStatus busy={props.busy} text={props.busyText} />
    </div>
  );
}

/** A field's or an action's error, announced; `id` lets the input name it in aria-describedby. */
export function FieldAlert({ error, id }: { error: string | null | undefined; id?: string }) {
  return error ? (
    <p id={id} role="alert" className="field-error">
      {error}
    </p>
  ) : null;
}

/** The ids an input's aria-describedby names: its error while there is one, else its hint. */
export const describedBy = (id: string, error: string | null) => (error ? `${id}-error` : `${id}-hint`);

/** Under an input: its error when there is one, else its hint (ids `${id}-error` / `${id}-hint`, see describedBy). */
export function ErrorOrHint({ id, error, children }: { id: string; error: string | null; children: ReactNode }) {
  return error ? (
    <FieldAlert id={`${id}-error`} error={error} />
  ) : (
    <p id={`${id}-hint`} className="hint">
      {children}
    </p>
  );
}

/** An email address input as every form of the storefront wants it: typed for phones, required, marked invalid. */
export function EmailInput(props: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
  describedBy: string;
  autoComplete?: 'email' | 'off';
  ref?: Ref<HTMLInputElement>;
}) {
  return (
    <input
      ref={props.ref}
      id={props.id}
      type="email"
      name="email"
      autoComplete={props.autoComplete ?? 'email'}
      inputMode="email"
      required
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
      aria-invalid={props.invalid || undefined}
      aria-describedby={props.describedBy}
    />
  );
}

/**
 * A destructive action once the person has been asked: the action (named, so they know what Yes does) and Cancel,
 * with its progress and its error under them. The caller moves focus to `confirmRef` when the question appears.
 */
export function ConfirmActions(props: {
  confirmRef: RefObject<HTMLButtonElement | null>;
  label: string;
  busyText: string;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <>
      <div className="actions">
        <button
          ref={props.confirmRef}
          type="button"
          className="button-danger"
          onClick={props.onConfirm}
          disabled={props.busy}
        >
          {props.label}
        </button>
        <button type="button" className="button-quiet" onClick={props.onCancel} disabled={props.busy}>
          Cancel
        </button>
        <BusyStatus busy={props.busy} text={props.busyText} />
      </div>
      <FieldAlert error={props.error} />
    </>
  );
}
