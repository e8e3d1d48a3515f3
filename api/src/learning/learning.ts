import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import { grantsAccess } from '../shared/purchase-status';
import type { User } from '../identity/models';
import type { ReadCaches } from '../cache/read-cache';
import type { LessonVideos } from '../video/playback-videos';
import type { ContentTree } from './content-tree';
import type { ContentResource } from './models';
import { issueCertificate } from '../certificates/queries';
import * as queries from './queries';
import {
  continueLesson,
  courseOutline,
  minutesOf,
  moduleLessonIds,
  progressOf,
  type CourseOutline,
  type OutlineLesson,
} from './outline';
import { sanitizeRichText } from './sanitize';
import type {
  CourseView,
  LessonLink,
  LessonView,
  Lock,
  ModuleProgress,
  MyCourse,
  NextLesson,
  ProgressAnswer,
} from './schemas';

/** Who is asking, and from where (Restricted purchases open only from their country). */
export interface Viewer {
  user: Pick<User, 'id'> | null;
  country: string;
}

type Entitlement = { full: true } | ({ full: false } & Lock);

const link = (lesson: OutlineLesson | undefined): LessonLink | null =>
  lesson ? { id: lesson.id, title: lesson.title, slug: lesson.slug } : null;

/**
 * What learners see of courses (docs/domain.md §11): outlines with progress, lessons behind their access rules, and the
 * progress writes. Drafts and private content do not exist for learners (404).
 */
export function learningService({
  db,
  tree,
  caches,
  videos,
}: {
  db: Db;
  tree: ContentTree;
  caches: ReadCaches;
  /** Lesson videos: the lesson answer's `video`. */
  videos: LessonVideos;
}) {
  // Course structure and lesson bodies change only when staff edit them: kept between requests (see ReadCaches).
  // What belongs to the learner (purchases, progress, bookmarks) is read fresh every time.
  const courseByKey = caches.cached((slugOrId: string) => queries.courseBySlugOrId(db, slugOrId));

  async function findCourse(slugOrId: string): Promise<ContentResource> {
    const course = await courseByKey(slugOrId);
    if (!course || course.fields.state !== 'published' || course.fields.visibility === 'private') {
      throw new AppError('not-found', 'No such course.');
    }
    return course;
  }

  /** A course's outline as its own links make it, before the rule that another course's sale wins. */
  const ownOutlineOf = caches.cached(async (courseId: string): Promise<CourseOutline> =>
    courseOutline(await tree.tree(courseId)),
  );

  /**
   * The outline learners get (docs/domain.md §11): free/paid is decided inside this course, but a lesson that another
   * course sells (held by a product, the lesson not free there) stays paid here, whatever this course's links say.
   */
  const outlineOf = caches.cached(async (courseId: string): Promise<CourseOutline> => {
    const outline = await ownOutlineOf(courseId);
    const paid = await paidElsewhere(
      courseId,
      outline.lessons.filter((l) => l.free).map((l) => l.id),
    );
    if (paid.size === 0) return outline;
    return { ...outline, lessons: outline.lessons.map((l) => (paid.has(l.id) ? { ...l, free: false } : l)) };
  });

  /** Of these lessons, the ones some other course held by a product sells (published or not: its buyers paid for it). */
  async function paidElsewhere(courseId: string, lessonIds: string[]): Promise<Set<string>> {
    if (lessonIds.length === 0) return new Set();
    const paid = new Set<string>();
    for (const { lessonId, courseId: seller } of await queries.coursesSellingLessons(db, courseId, lessonIds)) {
      // Not free there, or hidden there (a draft branch of a sold course is still sold content).
      const there = (await ownOutlineOf(seller)).lessons.find((l) => l.id === lessonId);
      if (!there?.free) paid.add(lessonId);
    }
    return paid;
  }

  /** Each lesson's minutes (a ready video's, else the length staff gave it): staff and processing change them. */
  const lessonMinutesOf = caches.cached(async (courseId: string) =>
    queries.lessonMinutes(
      db,
      (await outlineOf(courseId)).lessons.map((l) => l.id),
    ),
  );

  /** What to buy to open a course. */
  const productsOf = caches.cached((courseId: string) => queries.activeProductsOfCourse(db, courseId));

  /** A lesson's body as learners may see it: sanitised once, not on every view. */
  const lessonBody = caches.cached(async (lessonId: string): Promise<string> => {
    const resource = await queries.resourceById(db, lessonId);
    return sanitizeRichText(resource?.fields.body ?? '');
  });

  /** A Valid purchase of a product that holds the course, or a Restricted one from its own country, opens it. */
  async function entitlement(courseId: string, viewer: Viewer): Promise<Entitlement> {
    if (!viewer.user) return { full: false, reason: 'sign-in' };
    return entitlementFrom(await queries.purchasesOpening(db, courseId, viewer.user.id), viewer);
  }

  function entitlementFrom(purchases: queries.OpeningPurchase[], viewer: Viewer): Entitlement {
    if (!viewer.user) return { full: false, reason: 'sign-in' };
    if (purchases.some((p) => p.status === 'Valid')) return { full: true };
    const restricted = purchases.filter((p) => p.status === 'Restricted');
    if (restricted.some((p) => p.country === viewer.country)) return { full: true };
    if (restricted.length) return { full: false, reason: 'region', purchaseCountry: restricted[0]!.country };
    const ended = purchases.find((p) => !grantsAccess(p.status));
    if (ended) return { full: false, reason: 'ended', status: ended.status };
    return { full: false, reason: 'purchase' };
  }

  async function completions(
    userId: string | undefined,
    lessonIds: string[],
  ): Promise<{ done: Set<string>; last: string | null }> {
    if (!userId || lessonIds.length === 0) return { done: new Set(), last: null };
    const newestFirst = await queries.completedLessonIds(db, userId, lessonIds);
    return { done: new Set(newestFirst), last: newestFirst[0] ?? null };
  }

  function findLesson(outline: CourseOutline, slugOrId: string): OutlineLesson {
    const lesson = outline.lessons.find((l) => l.id === slugOrId || l.slug === slugOrId);
    if (!lesson) throw new AppError('not-found', 'No such lesson in this course.');
    return lesson;
  }

  /** The published courses learners may see that hold a lesson, nearest first (a lesson may sit in more than one). */
  const coursesOfLesson = caches.cached((lessonId: string) => queries.publicCoursesOfLesson(db, lessonId));

  async function isVisible(lessonId: string): Promise<boolean> {
    for (const courseId of await coursesOfLesson(lessonId)) {
      if ((await outlineOf(courseId)).lessons.some((l) => l.id === lessonId)) return true;
    }
    return false;
  }

  /** The lesson in a course the viewer may open, or why not; throws not-found for a lesson they cannot see at all. */
  async function openLesson(lessonId: string, viewer: Viewer, courseSlugOrId?: string) {
    const courseIds = courseSlugOrId ? [(await findCourse(courseSlugOrId)).id] : await coursesOfLesson(lessonId);
    let locked: Lock | null = null;
    for (const courseId of courseIds) {
      const outline = await outlineOf(courseId);
      const lesson = outline.lessons.find((l) => l.id === lessonId);
      if (!lesson) continue;
      const access = await entitlement(courseId, viewer);
      if (access.full || lesson.free) return { outline, lesson, lock: null };
      locked ??= access;
    }
    if (!locked) throw new AppError('not-found', 'No such lesson.');
    return { outline: null, lesson: null, lock: locked };
  }

  function mustOpen(opened: Awaited<ReturnType<typeof openLesson>>): { outline: CourseOutline; lesson: OutlineLesson } {
    if (!opened.lesson) throw new AppError('lesson-locked', 'This lesson is not open to you.');
    return { outline: opened.outline!, lesson: opened.lesson };
  }

  return {
    findCourse,
    entitlement,
    coursesOfLesson,

    /** Whether learners can see a lesson at all: in some published, not private course's outline (not a draft). */
    isVisible,

    /** Refuses (not-found) a lesson no learner can see. */
    async assertVisible(lessonId: string): Promise<void> {
      if (!(await isVisible(lessonId))) throw new AppError('not-found', 'No such lesson.');
    },

    /** Refuses (lesson-locked, or not-found) unless the viewer may open the lesson in that course, or in some. */
    async assertOpen(lessonId: string, viewer: Viewer, courseSlugOrId?: string): Promise<void> {
      mustOpen(await openLesson(lessonId, viewer, courseSlugOrId));
    },

    /** A course's outline with the viewer's access, progress per module and section, and where to continue. */
    async course(slugOrId: string, viewer: Viewer): Promise<CourseView> {
      const course = await findCourse(slugOrId);
      const [outline, access, products, minutes] = await Promise.all([
        outlineOf(course.id),
        entitlement(course.id, viewer),
        productsOf(course.id),
        lessonMinutesOf(course.id),
      ]);
      const { done, last } = await completions(
        viewer.user?.id,
        outline.lessons.map((l) => l.id),
      );
      const byId = new Map(outline.lessons.map((l) => [l.id, l]));
      const item = (id: string) => {
        const lesson = byId.get(id)!;
        return {
          id,
          title: lesson.title,
          slug: lesson.slug,
          free: lesson.free,
          open: access.full || lesson.free,
          completed: done.has(id),
          durationMinutes: minutes.get(id) ?? null,
        };
      };
      const lessonIds = outline.lessons.map((l) => l.id);
      const { full, ...lock } = access;
      return {
        course: {
          id: course.id,
          title: course.fields.title ?? '',
          slug: course.fields.slug ?? null,
          description: course.fields.description ?? null,
        },
        products,
        access: full ? { full: true as const } : { full: false as const, ...(lock as Lock) },
        progress: progressOf(lessonIds, done),
        totalMinutes: minutesOf(lessonIds, minutes),
        minutesLeft: minutesOf(
          lessonIds.filter((id) => !done.has(id)),
          minutes,
        ),
        modules: outline.modules.map((m) => ({
          id: m.id,
          title: m.title,
          slug: m.slug,
          progress: progressOf(moduleLessonIds(outline, m.id), done),
          lessons: m.lessonIds.map(item),
          sections: m.sections.map((s) => ({
            id: s.id,
            title: s.title,
            progress: progressOf(s.lessonIds, done),
            lessons: s.lessonIds.map(item),
          })),
        })),
        continue:
          viewer.user && (done.size > 0 || access.full) ? link(continueLesson(outline, done, last) ?? undefined) : null,
      };
    },

    /** A lesson page: its safe body when open, or why it is locked; previous/next in course order either way. */
    async lesson(courseSlugOrId: string, lessonSlugOrId: string, viewer: Viewer): Promise<LessonView> {
      const course = await findCourse(courseSlugOrId);
      const outline = await outlineOf(course.id);
      const lesson = findLesson(outline, lessonSlugOrId);
      const mine = viewer.user
        ? await queries.viewerOfLesson(db, course.id, lesson.id, viewer.user.id)
        : { purchases: [], completed: false, bookmarked: false, positionMs: 0 };
      const access = entitlementFrom(mine.purchases, viewer);
      const open = access.full || lesson.free;
      const [body, products, video] = await Promise.all([
        open ? lessonBody(lesson.id) : null,
        open ? [] : productsOf(course.id),
        videos.view(lesson.id, {
          open,
          free: lesson.free,
          userId: viewer.user?.id ?? null,
          positionMs: mine.positionMs,
        }),
      ]);
      const module = outline.modules.find((m) => m.id === lesson.moduleId)!;
      const section = module.sections.find((s) => s.id === lesson.sectionId) ?? null;
      const { full, ...lock } = access;
      return {
        course: { id: course.id, title: course.fields.title ?? '', slug: course.fields.slug ?? null },
        module: { id: module.id, title: module.title },
        section: section && { id: section.id, title: section.title },
        lesson: { id: lesson.id, title: lesson.title, slug: lesson.slug, free: lesson.free },
        open,
        lock: open || full ? null : (lock as Lock),
        body,
        /** What to buy, when it is locked (none when open). */
        products,
        completed: mine.completed,
        bookmarked: mine.bookmarked,
        video,
        previous: link(outline.lessons[lesson.index - 1]),
        next: link(outline.lessons[lesson.index + 1]),
      };
    },

    /** Marks a lesson complete (or not) in a course the learner may open it in; answers the module's progress. */
    async setCompleted(
      user: Pick<User, 'id'>,
      lessonId: string,
      completed: boolean,
      country: string,
      courseSlugOrId?: string,
    ): Promise<ProgressAnswer> {
      const { outline, lesson } = mustOpen(await openLesson(lessonId, { user, country }, courseSlugOrId));
      // The write and the module's progress after it in one statement.
      const mark = {
        userId: user.id,
        lessonId,
        moduleId: lesson.moduleId,
        sectionId: lesson.sectionId,
        lessonSlug: lesson.slug,
      };
      // Every other lesson of the course: the answer says whether this write finished the course.
      const others = outline.lessons.map((l) => l.id).filter((id) => id !== lessonId);
      const done = new Set(await queries.writeProgress(db, mark, completed, others));
      // Every lesson done by a learner who holds the course (not a free-lesson visitor, not a regional purchase
      // opened abroad) earns its certificate, issued once. This write's snapshot may miss a last lesson completed at
      // the same moment elsewhere (two tabs, a video's 90 %): near the end, issueCertificate counts again after it.
      const lessonIds = outline.lessons.map((l) => l.id);
      const certificate =
        completed && lessonIds.length - done.size <= 2 && (await entitlement(outline.id, { user, country })).full
          ? await issueCertificate(db, { userId: user.id, courseId: outline.id, courseTitle: outline.title, lessonIds })
          : null;
      return {
        lessonId,
        completed,
        certificate,
        module: moduleProgressOf(outline, lesson.moduleId, done),
        course: {
          id: outline.id,
          title: outline.title,
          slug: outline.slug,
          progress: progressOf(
            outline.lessons.map((l) => l.id),
            done,
          ),
        },
      };
    },

    /** Forgets a learner's progress in one module (to study it again). */
    async resetModule(user: Pick<User, 'id'>, courseSlugOrId: string, moduleId: string): Promise<ModuleProgress> {
      const course = await findCourse(courseSlugOrId);
      const outline = await outlineOf(course.id);
      if (!outline.modules.some((m) => m.id === moduleId))
        throw new AppError('not-found', 'No such module in this course.');
      await queries.forgetProgress(db, user.id, moduleLessonIds(outline, moduleId));
      return moduleProgress(db, user.id, outline, moduleId);
    },

    async moduleProgress(user: Pick<User, 'id'>, courseSlugOrId: string, moduleId: string): Promise<ModuleProgress> {
      const outline = await outlineOf((await findCourse(courseSlugOrId)).id);
      if (!outline.modules.some((m) => m.id === moduleId))
        throw new AppError('not-found', 'No such module in this course.');
      return moduleProgress(db, user.id, outline, moduleId);
    },

    /** Where to continue a course: the next lesson to study, or null when it is finished. */
    async next(user: Pick<User, 'id'>, courseSlugOrId: string): Promise<NextLesson> {
      const outline = await outlineOf((await findCourse(courseSlugOrId)).id);
      const { done, last } = await completions(
        user.id,
        outline.lessons.map((l) => l.id),
      );
      return {
        course: { id: outline.id, title: outline.title, slug: outline.slug },
        next: link(continueLesson(outline, done, last) ?? undefined),
        progress: progressOf(
          outline.lessons.map((l) => l.id),
          done,
        ),
      };
    },

    /** The learner's courses (owned or studied), most recently studied first, each with where to continue. */
    async myCourses(viewer: Viewer & { user: Pick<User, 'id'> }): Promise<MyCourse[]> {
      const result = [];
      for (const courseId of new Set(await queries.ownedCourseIds(db, viewer.user.id))) {
        const course = await queries.courseById(db, courseId);
        if (!course || course.fields.state !== 'published') continue;
        const outline = await outlineOf(course.id);
        const { done, last } = await completions(
          viewer.user.id,
          outline.lessons.map((l) => l.id),
        );
        const lastAt = last ? await queries.completedAtOf(db, viewer.user.id, last) : null;
        result.push({
          course: { id: course.id, title: course.fields.title ?? '', slug: course.fields.slug ?? null },
          progress: progressOf(
            outline.lessons.map((l) => l.id),
            done,
          ),
          continue: link(continueLesson(outline, done, last) ?? undefined),
          lastStudiedAt: lastAt,
        });
      }
      return result.sort((a, b) => (b.lastStudiedAt?.getTime() ?? 0) - (a.lastStudiedAt?.getTime() ?? 0));
    },
  };
}

async function moduleProgress(db: Db, userId: string, outline: CourseOutline, moduleId: string) {
  const ids = moduleLessonIds(outline, moduleId);
  const done = ids.length ? await queries.completedLessonIds(db, userId, ids) : [];
  return moduleProgressOf(outline, moduleId, new Set(done));
}

function moduleProgressOf(outline: CourseOutline, moduleId: string, done: Set<string>) {
  const module = outline.modules.find((m) => m.id === moduleId)!;
  return {
    moduleId,
    ...progressOf(moduleLessonIds(outline, moduleId), done),
    sections: module.sections.map((s) => ({ id: s.id, ...progressOf(s.lessonIds, done) })),
  };
}

export type LearningService = ReturnType<typeof learningService>;
