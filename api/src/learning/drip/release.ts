import { addDays, localDate, startOfDate, type CalendarDate } from './zoned-dates';

// Scheduled release ("drip", docs/domain.md §11): pure rules, no database. Type-only for the apps (no Node module).

/**
 * When a link's content opens, set on the link (its place in one course, as the tier is): a number of days after
 * the reader's start, or on a date for everyone (a cohort). Absent: open with the rest.
 */
export type Release = { afterDays: number } | { on: CalendarDate };

/** The release a link's metadata names; null for none (or a malformed one, which the console never writes). */
export function releaseOf(metadata: { releaseAfterDays?: unknown; releaseOn?: unknown } | null | undefined) {
  const days = metadata?.releaseAfterDays;
  if (typeof days === 'number' && Number.isInteger(days) && days > 0) return { afterDays: days } as Release;
  const on = metadata?.releaseOn;
  if (typeof on === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(on)) return { on } as Release;
  return null;
}

/** When something dripped opens for one reader, in their zone. */
export interface Opening {
  /** The date it opens, in the reader's zone; null when it counts from a start they have not made (not theirs yet). */
  on: CalendarDate | null;
  /** That date's first instant in their zone; null as `on`. */
  at: Date | null;
  /** Days after their start, for the text "opens N days after you start" when there is no date yet. */
  afterDays: number | null;
  /** The zone the date is in (the reader's, else UTC). */
  timeZone: string;
}

/** The reader's side of a release: when they started (their first access to the course) and their zone. */
export interface ReleaseReader {
  /** Null: the course is not theirs (a visitor, or nothing opens it to them). */
  start: Date | null;
  timeZone: string;
}

/**
 * When content under these releases opens (a module's and its lesson's: the later of them), day N being local
 * midnight N days after the start's local date. Null when there is no release.
 */
export function openingOf(releases: readonly Release[], reader: ReleaseReader): Opening | null {
  if (releases.length === 0) return null;
  let latest: Opening | null = null;
  for (const release of releases) {
    const on =
      'on' in release
        ? release.on
        : reader.start && addDays(localDate(reader.start, reader.timeZone), release.afterDays);
    const afterDays = 'afterDays' in release ? release.afterDays : null;
    // Not theirs yet: no date can be given, and nothing can open it before they start.
    if (on === null) return { on: null, at: null, afterDays, timeZone: reader.timeZone };
    if (!latest || on > latest.on!)
      latest = { on, at: startOfDate(on, reader.timeZone), afterDays, timeZone: reader.timeZone };
  }
  return latest;
}

/** Whether content with this opening is still closed at `now` (an opening without a date is). */
export function stillClosed(opening: Opening | null, now: Date): boolean {
  return opening !== null && (opening.at === null || now < opening.at);
}

/** Something of a course that a reader starting now would find closed, and when it opens for them. */
export interface PlannedRelease {
  courseId: string;
  courseTitle: string;
  title: string;
  what: 'module' | 'lesson';
  /** The date it opens in the reader's zone, and that date's first instant. */
  opensOn: string;
  opensAt: Date;
  timeZone: string;
}
