import type { Clock } from '../../clock';
import type { Db } from '../../db/connection';
import { timeZoneOf } from '../../identity/profile/prefs';
import { canonicalTimeZone } from '../../shared/time-zone';
import type { CourseOutline, OutlineLesson, OutlineModule } from '../outline';
import { accessStart } from './queries';
import { openingOf, stillClosed, type Opening, type ReleaseReader } from './release';

/** One reader's releases in one course: what is still closed to them, and until when. */
export interface ReaderReleases {
  reader: ReleaseReader;
  /** When a lesson opens, while it is still closed by its schedule; null once open (or never scheduled). */
  lesson(lesson: OutlineLesson): Opening | null;
  /** The same for a module's own release. */
  module(module: OutlineModule): Opening | null;
}

const hasReleases = (outline: CourseOutline) =>
  outline.modules.some((m) => m.release) || outline.lessons.some((l) => l.releases.length > 0);

/** The zone a reader's dates are in: the one their settings name, else UTC (docs/domain.md §11). */
export async function readerZone(db: Db, userId: string | null): Promise<string> {
  return zoneNamed(userId ? await timeZoneOf(db, userId) : null);
}

/** The zone a reader's settings name (read already), else UTC. */
export function zoneNamed(named: string | null): string {
  // Checked, but kept as the reader named it (Intl's canonical spelling may be an older one: Asia/Calcutta).
  return named && canonicalTimeZone(named) ? named : 'UTC';
}

/**
 * Scheduled release (docs/domain.md §11) as a reader meets it: day N opens at midnight in the reader's zone, N days
 * after the date their access began there. A course without any release costs no query.
 */
export function releaseSchedule({ db, clock }: { db: Db; clock: Clock }) {
  /** The releases of a course for a reader, read as of `now`; `reader` given (the console's view-as, a test) or looked up. */
  function releasesFor(outline: CourseOutline, reader: ReleaseReader, now: Date): ReaderReleases {
    const closed = (opening: Opening | null) => (stillClosed(opening, now) ? opening : null);
    return {
      reader,
      lesson: (lesson) => closed(openingOf(lesson.releases, reader)),
      module: (module) => closed(openingOf(module.release ? [module.release] : [], reader)),
    };
  }

  /** When the reader's access to the course began (null: it is not open to them) and their zone. */
  async function readerOf(courseId: string, userId: string | null): Promise<ReleaseReader> {
    if (!userId) return { start: null, timeZone: 'UTC' };
    const [start, timeZone] = await Promise.all([
      accessStart(db, courseId, userId, clock.now()),
      readerZone(db, userId),
    ]);
    return { start, timeZone };
  }

  return {
    releasesFor,
    readerOf,

    /** The course's releases for this reader now. */
    async forReader(outline: CourseOutline, userId: string | null): Promise<ReaderReleases> {
      const now = clock.now();
      if (!hasReleases(outline)) return releasesFor(outline, { start: null, timeZone: 'UTC' }, now);
      return releasesFor(outline, await readerOf(outline.id, userId), now);
    },
  };
}

export type ReleaseSchedule = ReturnType<typeof releaseSchedule>;
