import { getSchedule, type ScheduledSession } from '../../api/workshops';
import { LoadStatus } from '../../LoadStatus';
import { useReaderClock, type ReaderClock } from '../../readerClock';
import { formatSessionRange, sameWallClock } from '../../sessionTimes';
import { useAsync } from '../../useAsync';

/**
 * A live workshop's sessions in the visitor's time zone, each also in the workshop's own zone when that differs.
 * The join link is not here: holders find it in My learning.
 */
export function WorkshopSchedule({ productId }: { productId: string }) {
  const schedule = useAsync(() => getSchedule(productId), [productId]);
  const clock = useReaderClock();
  const yours = clock.timeZone;
  return (
    <section className="workshop-schedule" aria-labelledby="schedule-heading">
      <h2 id="schedule-heading">Schedule</h2>
      <LoadStatus state={schedule} retry={schedule.retry} what="the schedule" />
      {schedule.status === 'ready' &&
        (schedule.data.length === 0 ? (
          <p className="empty">
            The sessions are being scheduled: check back soon. Buyers find the dates in My learning.
          </p>
        ) : (
          <>
            <p className="hint">Times are in your time zone ({yours}).</p>
            <ol className="session-list">
              {schedule.data.map((session) => (
                <SessionItem key={session.id} session={session} clock={clock} />
              ))}
            </ol>
          </>
        ))}
    </section>
  );
}

function SessionItem({ session, clock }: { session: ScheduledSession; clock: ReaderClock }) {
  const { startsAt, endsAt, timeZone } = session;
  return (
    <li className="session">
      <h3>{session.title}</h3>
      <p>
        <time dateTime={startsAt}>{formatSessionRange(startsAt, endsAt, undefined, clock)}</time>
      </p>
      <p className="hint">
        {sameWallClock(startsAt, timeZone, clock.timeZone)
          ? `The workshop runs on ${timeZone} time.`
          : `${formatSessionRange(startsAt, endsAt, timeZone, clock)} in ${timeZone}, where the workshop runs.`}
      </p>
    </li>
  );
}
