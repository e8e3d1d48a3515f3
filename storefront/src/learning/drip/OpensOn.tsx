import { Link } from 'wouter';
import type { LessonItem } from '../../api/learning';
import { LOCALE } from '../../readerClock';
import './drip.css';

/** When dripped content opens for this reader (docs/domain.md §11), as the API answers it. */
export type Opens = NonNullable<LessonItem['opens']>;

const DATE = new Intl.DateTimeFormat(LOCALE, {
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/**
 * "Opens on Monday, November 2, 2026", or without a date yet (the course is not theirs, so no start to count from)
 * "Opens 3 days after you start". The date is the reader's own (the API counted it in their zone), written as is.
 */
export function opensText(opens: Opens): string {
  if (opens.on) return `Opens on ${DATE.format(new Date(`${opens.on}T00:00:00Z`))}`;
  const days = opens.afterDays ?? 0;
  return `Opens ${days} ${days === 1 ? 'day' : 'days'} after you start`;
}

/** The outline's mark beside a module or lesson still waiting for its release. */
export function OpensOnBadge({ opens }: { opens: Opens }) {
  return <span className="badge badge-opens">{opensText(opens)}</span>;
}

/** A lesson that is the reader's but not open yet: when it opens, in their zone, and where to go meanwhile. */
export function ScheduledLesson({ opens, coursePath }: { opens: Opens; coursePath: string }) {
  return (
    <section className="notice notice-info scheduled-lesson" aria-labelledby="scheduled-heading">
      <h2 id="scheduled-heading">{opensText(opens)}</h2>
      <p>
        {opens.on
          ? `This lesson is released on a schedule: it opens at midnight (${opens.timeZone} time), and we email you when it does.`
          : 'This lesson is released on a schedule, counted from the day the course becomes yours.'}
      </p>
      <p>
        <Link to={coursePath}>See what is open now in the course</Link>
      </p>
    </section>
  );
}
