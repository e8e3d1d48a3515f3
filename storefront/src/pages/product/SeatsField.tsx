import type { ReactNode, Ref } from 'react';

interface Props {
  label: string;
  /** The form's id prefix: the input is `${id}-seats`, its error `${id}-seats-error`. */
  id: string;
  inputRef?: Ref<HTMLInputElement>;
  max: number;
  value: string;
  onChange: (text: string) => void;
  onBlur: () => void;
  error: string | null;
  /** Shown under the input when there is no error (the price, the discount tier). */
  hint: ReactNode;
  hintId: string;
  /** Announce hint changes (a price that follows the count). */
  liveHint?: boolean;
  noteClassName?: string;
}

/** The number of seats, labelled, with its error or hint below: the same field when buying a team and when adding seats. */
export function SeatsField({
  label,
  id,
  inputRef,
  max,
  value,
  onChange,
  onBlur,
  error,
  hint,
  hintId,
  liveHint,
  noteClassName,
}: Props) {
  const note = (base: string) => (noteClassName ? `${base} ${noteClassName}` : base);
  return (
    <div className="field">
      <label htmlFor={`${id}-seats`}>{label}</label>
      <input
        ref={inputRef}
        id={`${id}-seats`}
        className="seats-input"
        type="number"
        name="seats"
        min={1}
        max={max}
        step={1}
        inputMode="numeric"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-seats-error` : hintId}
      />
      {error ? (
        <p id={`${id}-seats-error`} role="alert" className={note('field-error')}>
          {error}
        </p>
      ) : (
        <p id={hintId} className={note('hint')} aria-live={liveHint ? 'polite' : undefined}>
          {hint}
        </p>
      )}
    </div>
  );
}
