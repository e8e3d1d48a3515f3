import { Link } from 'wouter';
import { productPath } from '../api/catalog';
import type { HeldSession, MyWorkshop } from '../api/workshops';
import { deviceClock } from '../readerClock';
import { formatSessionRange, sameWallClock } from '../sessionTimes';

/** The live workshops the learner holds: the next session with its join link and invite, then the rest. */
export function MyWorkshops({ workshops }: { workshops: MyWorkshop[] }) {
  const yours = deviceClock().timeZone;
  return (
    <section className="my-workshops" aria-labelledby="workshops-heading">
      <h2 id="workshops-heading">Live workshops</h2>
      <p className="hint">Times are in your time zone ({yours}).</p>
      <ul className="my-courses">
        {workshops.map(({ product, nextSession, sessions, calendarUrl }) => (
          <li key={product.id} className="my-course my-workshop">
            <h3>
              <Link to={productPath(product)}>{product.name}</Link>
            </h3>
            {nextSession ? (
              <NextSession session={nextSession} yours={yours} />
            ) : (
              <p className="hint">
                No session is scheduled yet. The dates appear here, and we remind you by email a day and an hour before
                each.
              </p>
            )}
            {sessions.length > 1 && (
              <>
                <h4>Later sessions</h4>
                <ul className="later-sessions">
                  {sessions.slice(1).map((session) => (
                    <li key={session.id}>
                      {session.title}:{' '}
                      <time dateTime={session.startsAt}>
                        {formatSessionRange(session.startsAt, session.endsAt, yours, undefined, { zoneName: true })}
                      </time>
                    </li>
                  ))}
                </ul>
              </>
            )}
            {sessions.length > 1 && (
              <p className="actions">
                <a className="button-link button-link-quiet" href={calendarUrl} download>
                  Add all {sessions.length} sessions to your calendar (.ics)
                </a>
              </p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function NextSession({ session, yours }: { session: HeldSession; yours: string }) {
  const { startsAt, endsAt, timeZone } = session;
  const titleId = `session-${session.id}`;
  return (
    <div className="next-session">
      <p className="session-label">Next session</p>
      <p id={titleId} className="session-title">
        {session.title}
      </p>
      <p>
        <time dateTime={startsAt}>{formatSessionRange(startsAt, endsAt, yours, undefined, { zoneName: true })}</time>
      </p>
      {!sameWallClock(startsAt, timeZone, yours) && (
        <p className="hint">
          {formatSessionRange(startsAt, endsAt, timeZone)} in {timeZone}
        </p>
      )}
      <p className="actions">
        {session.joinUrl ? (
          <a className="button-link" href={session.joinUrl} rel="noopener noreferrer" aria-describedby={titleId}>
            Join the session
          </a>
        ) : (
          <span className="hint">The join link appears here before the session.</span>
        )}
        <a className="button-link button-link-quiet" href={session.inviteUrl} download aria-describedby={titleId}>
          Add to calendar
        </a>
      </p>
    </div>
  );
}
