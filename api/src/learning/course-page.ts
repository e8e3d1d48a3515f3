import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import type { User } from '../identity/models';
import type { LessonAccess, Viewer } from './access';
import type { CourseReads } from './course-reads';
import type { ReleaseSchedule } from './drip/schedule';
import { continueLesson, lessonLink, minutesOf, moduleLessonIds, progressOf, type CourseOutline } from './outline';
import * as queries from './queries';
import type { CourseView, LessonItem, Lock, MyCourse, NextLesson } from './schemas';

/** Of these lessons, the ones the learner completed, and the one completed last. */
async function completions(
  db: Db,
  userId: string | undefined,
  lessonIds: string[],
): Promise<{ done: Set<string>; last: string | null }> {
  if (!userId || lessonIds.length === 0) return { done: new Set(), last: null };
  const newestFirst = await queries.completedLessonIds(db, userId, lessonIds);
  return { done: new Set(newestFirst), last: newestFirst[0] ?? null };
}

const lessonIdsOf = (outline: CourseOutline) => outline.lessons.map((l) => l.id);

/** Courses as learners see them: the outline with access and progress, where to continue, their own courses. */
export function coursePages({
  db,
  reads,
  access,
  clock,
  releases,
}: {
  db: Db;
  reads: CourseReads;
  access: LessonAccess;
  clock: Clock;
  releases: ReleaseSchedule;
}) {
  return {
    /** A course's outline with the viewer's access, progress per module and section, and where to continue. */
    async course(slugOrId: string, viewer: Viewer): Promise<CourseView> {
      const course = await reads.findCourse(slugOrId);
      const [outline, entitled, products, minutes] = await Promise.all([
        reads.outlineOf(course.id),
        access.entitlement(course.id, viewer),
        reads.productsOf(course.id),
        reads.lessonMinutesOf(course.id),
      ]);
      const scheduled = await releases.forReader(outline, viewer.user?.id ?? null);
      const lessonIds = lessonIdsOf(outline);
      const { done, last } = await completions(db, viewer.user?.id, lessonIds);
      const byId = new Map(outline.lessons.map((l) => [l.id, l]));
      const item = (id: string): LessonItem => {
        const lesson = byId.get(id)!;
        const opens = scheduled.lesson(lesson);
        return {
          id,
          title: lesson.title,
          slug: lesson.slug,
          free: lesson.free,
          open: (entitled.full || lesson.free) && !opens,
          completed: done.has(id),
          durationMinutes: minutes.get(id) ?? null,
          opens,
        };
      };
      const { full, ...lock } = entitled;
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
          opens: scheduled.module(m),
        })),
        continue:
          viewer.user && (done.size > 0 || entitled.full) ? lessonLink(continueLesson(outline, done, last)) : null,
      };
    },

    /** Where to continue a course: the next lesson to study, or null when it is finished. */
    async next(user: Pick<User, 'id'>, courseSlugOrId: string): Promise<NextLesson> {
      const outline = await reads.outlineOf((await reads.findCourse(courseSlugOrId)).id);
      const { done, last } = await completions(db, user.id, lessonIdsOf(outline));
      return {
        course: { id: outline.id, title: outline.title, slug: outline.slug },
        next: lessonLink(continueLesson(outline, done, last)),
        progress: progressOf(lessonIdsOf(outline), done),
      };
    },

    /** The learner's courses (owned or studied), most recently studied first, each with where to continue. */
    async myCourses(viewer: Viewer & { user: Pick<User, 'id'> }): Promise<MyCourse[]> {
      const result = [];
      for (const courseId of new Set(await queries.ownedCourseIds(db, viewer.user.id, clock.now()))) {
        const course = await queries.courseById(db, courseId);
        if (!course || course.fields.state !== 'published') continue;
        const outline = await reads.outlineOf(course.id);
        const { done, last } = await completions(db, viewer.user.id, lessonIdsOf(outline));
        const lastAt = last ? await queries.completedAtOf(db, viewer.user.id, last) : null;
        result.push({
          course: { id: course.id, title: course.fields.title ?? '', slug: course.fields.slug ?? null },
          progress: progressOf(lessonIdsOf(outline), done),
          continue: lessonLink(continueLesson(outline, done, last)),
          lastStudiedAt: lastAt,
        });
      }
      return result.sort((a, b) => (b.lastStudiedAt?.getTime() ?? 0) - (a.lastStudiedAt?.getTime() ?? 0));
    },
  };
}
