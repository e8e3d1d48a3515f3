import type { HeldSession, ScheduledSession } from '../api/workshops';
import { deviceClock } from '../readerClock';
import { formatSessionRange, sameWallClock } from '../sessionTimes';

/**
 * A workshop's sessions for someone who bought it, each in the reader's time zone with the zone named (and in the
 * workshop's own zone when that differs), with its join link once the organisers set it. Sessions from the public
 * schedule (not signed in) carry no join link: where to find it is said instead.
 */
export function WorkshopSessions({
  sessions,
  calendarUrl,
}: {
  sessions: (ScheduledSession | HeldSession)[];
  /** The calendar file with every session (holders only). */
  calendarUrl: string | null;
}) {
  const yours = deviceClock().timeZone;
  if (sessions.length === 0) {
    return (
      <p className="hint">
        The sessions are being scheduled. The dates appear in My learning, and we remind you by email a day and an hour
        before each.
      </p>
    );
  }
  return (
    <>
      <p className="hint">
        Times are in your time zone, {zoneLongName(yours, sessions[0]!.startsAt)} ({yours}).
      </p>
      <ol className="session-list">
        {sessions.map((session) => (
          <li key={session.id} className="session">
            <h3 id={`session-${session.id}`}>{session.title}</h3>
            <p>
              <time dateTime={session.startsAt}>
                {formatSessionRange(session.startsAt, session.endsAt, yours, undefined, { zoneName: true })}
              </time>
            </p>
            {!sameWallClock(session.startsAt, session.timeZone, yours) && (
              <p className="hint">
                {formatSessionRange(session.startsAt, session.endsAt, session.timeZone)} in {session.timeZone}, where
                the workshop runs
              </p>
            )}
            {'joinUrl' in session &&
              (session.joinUrl ? (
                <p>
                  <a href={session.joinUrl} rel="noopener noreferrer" aria-describedby={`session-${session.id}`}>
                    Join link
                  </a>
                </p>
              ) : (
                <p className="hint">The join link appears in My learning before the session.</p>
              ))}
          </li>
        ))}
      </ol>
      {calendarUrl && (
        <p className="actions">
          <a className="button-link button-link-quiet" href={calendarUrl} download>
            Add all sessions to your calendar (.ics)
          </a>
        </p>
      )}
    </>
  );
}

/** "India Standard Time": a zone as people call it (browsers may spell Asia/Kolkata as its older Asia/Calcutta). */
function zoneLongName(timeZone: string, at: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'long' }).formatToParts(new Date(at));
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
}
