import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import type { User } from '../identity/models';
import { mustOpen, type LessonAccess } from './access';
import type { CourseReads } from './course-reads';
import { moduleLessonIds, progressOf, type CourseOutline } from './outline';
import * as queries from './queries';
import { lessonKindOf } from '../shared/lesson-kinds';
import { passedQuizIds } from './quizzes/queries';
import type { ModuleProgress, ProgressAnswer } from './schemas';

function moduleProgressOf(outline: CourseOutline, moduleId: string, done: Set<string>): ModuleProgress {
  const module = outline.modules.find((m) => m.id === moduleId)!;
  return {
    moduleId,
    ...progressOf(moduleLessonIds(outline, moduleId), done),
    sections: module.sections.map((s) => ({ id: s.id, ...progressOf(s.lessonIds, done) })),
  };
}

async function moduleProgressFor(db: Db, userId: string, outline: CourseOutline, moduleId: string) {
  const ids = moduleLessonIds(outline, moduleId);
  const done = ids.length ? await queries.completedLessonIds(db, userId, ids) : [];
  return moduleProgressOf(outline, moduleId, new Set(done));
}

function assertModuleIn(outline: CourseOutline, moduleId: string): void {
  if (!outline.modules.some((m) => m.id === moduleId))
    throw new AppError('not-found', 'No such module in this course.');
}

/** The learner's progress (docs/domain.md §11): completing a lesson, a module's progress, resetting a module. */
/** A course the learner finished, as the certificates domain issues its certificate for it. */
export interface CourseCompletion {
  userId: string;
  courseId: string;
  courseTitle: string;
  /** Every lesson of the course as learners see it: all of them must be complete. */
  lessonIds: string[];
}

/** Issues the certificate of a completed course, once (passed in from api/src/services.ts). */
export type IssueCertificate = (db: Db, completion: CourseCompletion) => Promise<{ id: string } | null>;

export function lessonProgress({
  db,
  reads,
  access,
  issueCertificate,
}: {
  db: Db;
  reads: CourseReads;
  access: LessonAccess;
  issueCertificate: IssueCertificate;
}) {
  /** A quiz lesson is completed by a passing attempt alone (docs/domain.md §11): not by hand, nor by its video. */
  async function completedByQuiz(lessonId: string): Promise<boolean> {
    return lessonKindOf((await queries.resourceById(db, lessonId))?.fields) === 'quiz';
  }

  async function save(
    user: Pick<User, 'id'>,
    lessonId: string,
    completed: boolean,
    country: string,
    courseSlugOrId: string | undefined,
    byHand: boolean,
  ): Promise<ProgressAnswer> {
    const { outline, lesson } = mustOpen(await access.openLesson(lessonId, { user, country }, courseSlugOrId));
    // Its completion stands for a pass: ticked by hand it would open the certificate, unticked it could not come back
    // once the attempts are used up.
    if (byHand && (await completedByQuiz(lessonId)))
      throw new AppError('quiz-completes-by-passing', 'A quiz lesson is complete once you pass its quiz.');
    // The write and the module's progress after it in one statement.
    const mark = {
      userId: user.id,
      lessonId,
      moduleId: lesson.moduleId,
      sectionId: lesson.sectionId,
      lessonSlug: lesson.slug,
    };
    // Every other lesson of the course: the answer says whether this write finished the course.
    const lessonIds = outline.lessons.map((l) => l.id);
    const others = lessonIds.filter((id) => id !== lessonId);
    const done = new Set(await queries.writeProgress(db, mark, completed, others));
    // Every lesson done by a learner who holds the course (not a free-lesson visitor, not a regional purchase
    // opened abroad) earns its certificate, issued once. This write's snapshot may miss a last lesson completed at
    // the same moment elsewhere (two tabs, a video's 90 %): near the end, issueCertificate counts again after it.
    const certificate =
      completed && lessonIds.length - done.size <= 2 && (await access.entitlement(outline.id, { user, country })).full
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
        progress: progressOf(lessonIds, done),
      },
    };
  }

  return {
    completedByQuiz,

    /**
     * Marks a lesson complete (or not) in a course the learner may open it in; answers the module's progress. The
     * path of a passing quiz attempt and of a watched video.
     */
    setCompleted: (
      user: Pick<User, 'id'>,
      lessonId: string,
      completed: boolean,
      country: string,
      courseSlugOrId?: string,
    ): Promise<ProgressAnswer> => save(user, lessonId, completed, country, courseSlugOrId, false),

    /** The learner's Mark complete / Mark incomplete: refused on a quiz lesson (quiz-completes-by-passing). */
    markByHand: (
      user: Pick<User, 'id'>,
      lessonId: string,
      completed: boolean,
      country: string,
      courseSlugOrId?: string,
    ): Promise<ProgressAnswer> => save(user, lessonId, completed, country, courseSlugOrId, true),

    /** Forgets a learner's progress in one module (to study it again). */
    async resetModule(user: Pick<User, 'id'>, courseSlugOrId: string, moduleId: string): Promise<ModuleProgress> {
      const outline = await reads.outlineOf((await reads.findCourse(courseSlugOrId)).id);
      assertModuleIn(outline, moduleId);
      // A passed quiz stays complete: its attempts are kept (and counted against its limit), so it could not be
      // completed again once they are used up.
      const ids = moduleLessonIds(outline, moduleId);
      const passed = new Set(await passedQuizIds(db, user.id, ids));
      await queries.forgetProgress(
        db,
        user.id,
        ids.filter((id) => !passed.has(id)),
      );
      return moduleProgressFor(db, user.id, outline, moduleId);
    },

    async moduleProgress(user: Pick<User, 'id'>, courseSlugOrId: string, moduleId: string): Promise<ModuleProgress> {
      const outline = await reads.outlineOf((await reads.findCourse(courseSlugOrId)).id);
      assertModuleIn(outline, moduleId);
      return moduleProgressFor(db, user.id, outline, moduleId);
    },
  };
}
