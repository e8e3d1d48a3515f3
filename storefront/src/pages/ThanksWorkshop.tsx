import { Link } from 'wouter';
import { getSchedule, listMyWorkshops } from '../api/workshops';
import { WorkshopSessions } from '../learning/WorkshopSessions';
import { LoadStatus } from '../LoadStatus';
import { loginPath } from '../redirects';
import { useSession } from '../session';
import { useAsync } from '../useAsync';

/**
 * The thank-you page of a live workshop: its sessions in the buyer's time zone. Signed in as a holder: with the join
 * links and one calendar file of every session; otherwise the public schedule and the way to them.
 */
export function ThanksWorkshop({ productId, email }: { productId: string; email: string | null }) {
  const { state } = useSession();
  const signedIn = state.status === 'signed-in';
  const schedule = useAsync(async () => {
    if (state.status === 'loading') return null;
    const held = signedIn ? (await listMyWorkshops()).find((w) => w.product.id === productId) : undefined;
    if (held) return { sessions: held.sessions, calendarUrl: held.calendarUrl, held: true };
    return { sessions: await getSchedule(productId), calendarUrl: null, held: false };
  }, [productId, state.status]);
  return (
    <section className="thanks-schedule" aria-labelledby="thanks-schedule-heading">
      <h2 id="thanks-schedule-heading">Your workshop’s schedule</h2>
      <LoadStatus state={schedule} retry={schedule.retry} what="the schedule" />
      {schedule.status === 'ready' && schedule.data && (
        <>
          <WorkshopSessions sessions={schedule.data.sessions} calendarUrl={schedule.data.calendarUrl} />
          {!schedule.data.held && (
            <p className="hint">
              The join links and the calendar file are in your receipt, and in My learning once you{' '}
              <Link to={loginPath('/learning', email ?? undefined)}>sign in</Link>.
            </p>
          )}
        </>
      )}
    </section>
  );
}
