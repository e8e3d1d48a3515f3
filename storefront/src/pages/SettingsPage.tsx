import { useMemo, useRef, useState, type ReactNode } from 'react';
import {
  deviceTimeZone,
  getGlobalPrefs,
  PLAYBACK_RATES,
  prefsOf,
  putGlobalPrefs,
  timeZoneChoices,
  type Prefs,
} from '../api/prefs';
import { applyDisplay } from '../display';
import { LoadStatus, RetryAlert } from '../LoadStatus';
import { RequireSignIn } from '../RequireSignIn';
import { useDocumentTitle } from '../useDocumentTitle';
import { useAccountAsync } from '../useAccountAsync';
import { useSession } from '../session';
import { DisplayNameForm } from './DisplayNameForm';
import { ReplyEmailsSetting } from './settings/ReplyEmailsSetting';
import { YourDataSection } from './settings/YourDataSection';

/**
 * /settings: the display name shown on comments (saved with its button); theme and reading size (applied at once), the
 * time zone of emails, and how lesson videos play (their speed, the next lesson's video), saved to the account as
 * they change.
 */
export function SettingsPage() {
  return <RequireSignIn>{() => <SettingsLoader />}</RequireSignIn>;
}

function SettingsLoader() {
  const fields = useAccountAsync(getGlobalPrefs);
  const { state } = useSession();
  useDocumentTitle('Settings');

  return (
    <section className="settings narrow">
      <h1>Settings</h1>
      {state.status === 'signed-in' && <DisplayNameForm current={state.user.name} userId={state.user.id} />}
      {fields.status === 'ready' ? (
        <SettingsForm stored={fields.data} />
      ) : (
        <LoadStatus state={fields} retry={fields.retry} what="your settings" />
      )}
      {state.status === 'signed-in' && <YourDataSection email={state.user.email} viewAs={Boolean(state.viewAs)} />}
    </section>
  );
}

type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'error'; message: string };

function SettingsForm({ stored }: { stored: Record<string, unknown> }) {
  // No zone stored yet: the device's is shown, and saved with the first change (as sign-in would have offered it).
  const [prefs, setPrefs] = useState<Prefs>(() => {
    const read = prefsOf(stored);
    return { ...read, timeZone: read.timeZone ?? deviceTimeZone() };
  });
  const zones = useMemo(timeZoneChoices, []);
  const [save, setSave] = useState<SaveState>({ kind: 'idle' });
  // PUT replaces every global field: other fields (other apps' settings) go back unchanged.
  const latest = useRef<Record<string, unknown>>(stored);
  const queue = useRef<Promise<void>>(Promise.resolve());

  function persist(fields: Record<string, unknown>) {
    latest.current = fields;
    setSave({ kind: 'saving' });
    // One request at a time, and only the newest choice: it holds every change before it.
    queue.current = queue.current.then(async () => {
      if (latest.current !== fields) return;
      try {
        await putGlobalPrefs(fields);
        if (latest.current === fields) setSave({ kind: 'saved' });
      } catch (error) {
        if (latest.current === fields) setSave({ kind: 'error', message: (error as Error).message });
      }
    });
  }

  function change(next: Prefs) {
    setPrefs(next);
    applyDisplay({ theme: next.theme, fontSize: next.reading.fontSize });
    persist({
      ...latest.current,
      theme: next.theme,
      reading: next.reading,
      video: next.video,
      timeZone: next.timeZone,
    });
  }

  // Stored once chosen (on is the default), other email choices (other clients') kept; the shown zone saved as above.
  function changeReplies(replies: boolean) {
    setPrefs({ ...prefs, emails: { ...prefs.emails, replies } });
    const emails = { ...(latest.current.emails as object | undefined), replies };
    persist({ ...latest.current, timeZone: prefs.timeZone, emails });
  }

  return (
    <form className="stack" onSubmit={(event) => event.preventDefault()}>
      <Choice
        legend="Theme"
        name="theme"
        value={prefs.theme}
        options={[
          ['light', 'Light'],
          ['dark', 'Dark'],
          ['system', 'Same as my device'],
        ]}
        onChange={(theme) => change({ ...prefs, theme })}
      />
      <Choice
        legend="Lesson text size"
        name="font-size"
        value={prefs.reading.fontSize}
        options={[
          ['normal', 'Normal'],
          ['large', 'Large'],
        ]}
        onChange={(fontSize) => change({ ...prefs, reading: { fontSize } })}
      />
      <div className="field settings-group">
        <label htmlFor="time-zone">Time zone</label>
        <select
          id="time-zone"
          value={prefs.timeZone!}
          aria-describedby="time-zone-hint"
          onChange={(event) => change({ ...prefs, timeZone: event.target.value })}
        >
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll('_', ' ')}
              {zone === deviceTimeZone() ? ' (this device)' : ''}
            </option>
          ))}
        </select>
        <p id="time-zone-hint" className="hint">
          Dates in our emails to you (such as the deadline of a course offered to you) use this zone. Pages show your
          device’s.
        </p>
      </div>
      <fieldset className="settings-group">
        <legend>Videos</legend>
        <p className="hint">How lesson videos play for you, on every device you sign in on.</p>
        <div className="field">
          <label htmlFor="playback-rate">Playback speed</label>
          <select
            id="playback-rate"
            value={prefs.video.playbackRate}
            onChange={(event) =>
              change({ ...prefs, video: { ...prefs.video, playbackRate: Number(event.target.value) } })
            }
          >
            {PLAYBACK_RATES.map((rate) => (
              <option key={rate} value={rate}>
                {rate === 1 ? 'Normal (1×)' : `${rate}×`}
              </option>
            ))}
          </select>
        </div>
        <label className="check">
          <input
            type="checkbox"
            checked={prefs.video.autoplayNext}
            onChange={(event) => change({ ...prefs, video: { ...prefs.video, autoplayNext: event.target.checked } })}
          />
          Play the next lesson’s video automatically
        </label>
      </fieldset>
      <ReplyEmailsSetting on={prefs.emails.replies} onChange={changeReplies} />
      <p role="status" className="save-status">
        {save.kind === 'saving' ? 'Saving…' : save.kind === 'saved' ? 'Saved to your account.' : ''}
      </p>
      {save.kind === 'error' && (
        <RetryAlert
          text={`Your choice applies in this browser, but we could not save it to your account: ${save.message}`}
          retry={() => persist({ ...latest.current })}
        />
      )}
    </form>
  );
}

function Choice<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
}: {
  legend: string;
  name: string;
  value: T;
  options: [T, ReactNode][];
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="settings-group">
      <legend>{legend}</legend>
      <div className="choices">
        {options.map(([option, label]) => (
          <label key={option} className="check">
            <input
              type="radio"
              name={name}
              value={option}
              checked={value === option}
              onChange={() => onChange(option)}
            />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
