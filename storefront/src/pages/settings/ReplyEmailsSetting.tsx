import { useId } from 'react';

/**
 * Whether replies to the learner's comments are emailed to them (on unless turned off here or with an email's
 * unsubscribe link). Saved with the other settings as it changes.
 */
export function ReplyEmailsSetting({ on, onChange }: { on: boolean; onChange: (on: boolean) => void }) {
  const hint = useId();
  return (
    <fieldset className="settings-group">
      <legend>Emails</legend>
      <label className="check">
        <input
          type="checkbox"
          checked={on}
          aria-describedby={hint}
          onChange={(event) => onChange(event.target.checked)}
        />
        Email me when someone replies to my comment
      </label>
      <p id={hint} className="hint">
        One email per reply, a few minutes after it is posted, with a link straight to it. Each email also has a link
        that turns these off.
      </p>
    </fieldset>
  );
}
