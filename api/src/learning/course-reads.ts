import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import type { ReadCaches } from '../cache/read-cache';
import type { ContentTree } from './content-tree';
import type { ContentRow } from './models';
import * as queries from './queries';
import { courseOutline, type CourseOutline } from './outline';
import { lessonKindContent } from './lesson-kinds.schemas';
import { sanitizeRichText } from './sanitize';

/**
 * What learners read of courses and lessons that only staff change (structure, bodies, lengths, what is on sale):
 * kept between requests (see ReadCaches). What belongs to the learner (purchases, progress, bookmarks) is read
 * fresh every time, elsewhere.
 */
export function courseReads({ db, tree, caches }: { db: Db; tree: ContentTree; caches: ReadCaches }) {
  const courseByKey = caches.cached((slugOrId: string) => queries.courseBySlugOrId(db, slugOrId));

  /** A published course learners may see, by slug or id; drafts and private courses do not exist for them (404). */
  async function findCourse(slugOrId: string): Promise<ContentRow> {
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

  return {
    findCourse,
    outlineOf,

    /** Each lesson's minutes (a ready video's, else the length staff gave it): staff and processing change them. */
    lessonMinutesOf: caches.cached(async (courseId: string) =>
      queries.lessonMinutes(
        db,
        (await outlineOf(courseId)).lessons.map((l) => l.id),
      ),
    ),

    /**
     * Each lesson's minutes (null when unknown) in reading order, by course, for the courses learners may see among
     * these: four statements however many courses (the catalog's cards).
     */
    async lessonMinutesOfCourses(courseIds: string[]): Promise<Map<string, (number | null)[]>> {
      const courses = courseIds.length ? await queries.coursesByIds(db, courseIds) : [];
      const seen = courses.filter((c) => c.fields.state === 'published' && c.fields.visibility !== 'private');
      const trees = await tree.trees(seen.map((c) => c.id));
      const outlines = [...trees.values()].map(courseOutline);
      const minutes = await queries.lessonMinutes(db, [
        ...new Set(outlines.flatMap((o) => o.lessons.map((l) => l.id))),
      ]);
      return new Map(outlines.map((o) => [o.id, o.lessons.map((l) => minutes.get(l.id) ?? null)]));
    },

    /** What to buy to open a course. */
    productsOf: caches.cached((courseId: string) => queries.activeProductsOfCourse(db, courseId)),

    /** An open lesson's body and its kind's part, as learners may see them: sanitised once, not on every view. */
    lessonContent: caches.cached(async (lessonId: string) => {
      const fields = (await queries.resourceById(db, lessonId))?.fields;
      return { body: sanitizeRichText(fields?.body ?? ''), content: lessonKindContent(fields) };
    }),

    /** The published courses learners may see that hold a lesson, nearest first (a lesson may sit in more than one). */
    coursesOfLesson: caches.cached((lessonId: string) => queries.publicCoursesOfLesson(db, lessonId)),
  };
}

export type CourseReads = ReturnType<typeof courseReads>;
