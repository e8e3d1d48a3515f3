import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import { grantsAccess } from '../shared/purchase-status';
import type { User } from '../identity/models';
import type { CourseReads } from './course-reads';
import type { ReleaseSchedule } from './drip/schedule';
import type { Opening } from './drip/release';
import type { CourseOutline, OutlineLesson } from './outline';
import * as queries from './queries';
import type { Lock } from './schemas';

/** Who is asking, and from where (Restricted purchases open only from their country). */
export interface Viewer {
  user: Pick<User, 'id'> | null;
  country: string;
}

export type Entitlement = { full: true } | ({ full: false } & Lock);

/**
 * Whether these purchases (the viewer's, of products holding the course) open it (docs/domain.md §11): a Valid one,
 * or a Restricted one from its own country; otherwise why not.
 */
export function entitlementFrom(purchases: queries.OpeningPurchase[], viewer: Viewer): Entitlement {
  if (!viewer.user) return { full: false, reason: 'sign-in' };
  if (purchases.some((p) => p.status === 'Valid')) return { full: true };
  const restricted = purchases.filter((p) => p.status === 'Restricted');
  if (restricted.some((p) => p.country === viewer.country)) return { full: true };
  if (restricted.length) return { full: false, reason: 'region', purchaseCountry: restricted[0]!.country };
  const ended = purchases.find((p) => !grantsAccess(p.status));
  if (ended) return { full: false, reason: 'ended', status: ended.status };
  return { full: false, reason: 'purchase' };
}

/** A lesson the viewer may open, in the course's outline; or, when none opens it, why not. */
export type OpenedLesson =
  { outline: CourseOutline; lesson: OutlineLesson; lock: null } | { outline: null; lesson: null; lock: Lock };

/** Refuses (lesson-locked) a lesson that did not open. */
export function mustOpen(opened: OpenedLesson): { outline: CourseOutline; lesson: OutlineLesson } {
  if (!opened.lesson) throw new AppError('lesson-locked', 'This lesson is not open to you.');
  return { outline: opened.outline, lesson: opened.lesson };
}

/** Who may see and open which lessons (docs/domain.md §11). */
export function lessonAccess({
  db,
  reads,
  clock,
  releases,
}: {
  db: Db;
  reads: CourseReads;
  clock: Clock;
  /** Scheduled release: a lesson open to the viewer waits for its day (docs/domain.md §11). */
  releases: ReleaseSchedule;
}) {
  /**
   * A Valid purchase of a product that holds the course, a Restricted one from its own country, or a membership's
   * subscription in force (docs/domain.md §22) opens it.
   */
  async function entitlement(courseId: string, viewer: Viewer): Promise<Entitlement> {
    if (!viewer.user) return { full: false, reason: 'sign-in' };
    return entitlementFrom(await queries.purchasesOpening(db, courseId, viewer.user.id, clock.now()), viewer);
  }

  /** Whether learners can see a lesson at all: in some published, not private course's outline (not a draft). */
  async function isVisible(lessonId: string): Promise<boolean> {
    for (const courseId of await reads.coursesOfLesson(lessonId)) {
      if ((await reads.outlineOf(courseId)).lessons.some((l) => l.id === lessonId)) return true;
    }
    return false;
  }

  /** The lesson in a course the viewer may open, or why not; throws not-found for a lesson they cannot see at all. */
  async function openLesson(lessonId: string, viewer: Viewer, courseSlugOrId?: string): Promise<OpenedLesson> {
    const courseIds = courseSlugOrId
      ? [(await reads.findCourse(courseSlugOrId)).id]
      : await reads.coursesOfLesson(lessonId);
    let locked: Lock | null = null;
    let scheduled: Opening | null = null;
    for (const courseId of courseIds) {
      const outline = await reads.outlineOf(courseId);
      const lesson = outline.lessons.find((l) => l.id === lessonId);
      if (!lesson) continue;
      const access = await entitlement(courseId, viewer);
      if (access.full || lesson.free) {
        const opening = (await releases.forReader(outline, viewer.user?.id ?? null)).lesson(lesson);
        if (!opening) return { outline, lesson, lock: null };
        scheduled ??= opening;
      } else locked ??= access;
    }
    if (scheduled) {
      const when = scheduled.on ? `on ${scheduled.on}` : `${scheduled.afterDays} days after you start`;
      throw new AppError('lesson-not-open-yet', `This lesson opens ${when}.`);
    }
    if (!locked) throw new AppError('not-found', 'No such lesson.');
    return { outline: null, lesson: null, lock: locked };
  }

  return {
    entitlement,
    isVisible,
    openLesson,

    /** Refuses (not-found) a lesson no learner can see. */
    async assertVisible(lessonId: string): Promise<void> {
      if (!(await isVisible(lessonId))) throw new AppError('not-found', 'No such lesson.');
    },

    /** Refuses (lesson-locked, or not-found) unless the viewer may open the lesson in that course, or in some. */
    async assertOpen(lessonId: string, viewer: Viewer, courseSlugOrId?: string): Promise<void> {
      mustOpen(await openLesson(lessonId, viewer, courseSlugOrId));
    },
  };
}

export type LessonAccess = ReturnType<typeof lessonAccess>;
