import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import { entitlementFrom, type Viewer } from './access';
import type { CourseReads } from './course-reads';
import type { ReleaseSchedule } from './drip/schedule';
import { lessonLink, type CourseOutline, type OutlineLesson } from './outline';
import * as queries from './queries';
import { isUuid } from '../shared/uuid';
import type { LessonVideoView, LessonView, Lock } from './schemas';

/** Who watches and what they may, for one lesson's video. */
export interface VideoViewer {
  /** The lesson is open to them (their purchase, or free). */
  open: boolean;
  /** Open to everyone: its links name no learner, so they work signed out. */
  free: boolean;
  userId: string | null;
  /** Their saved position (0 when none). */
  positionMs: number;
}

/** The lesson answer's `video` for its viewer: the video domain answers (passed in from api/src/services.ts). */
export interface LessonVideoViews {
  view(lessonId: string, viewer: VideoViewer): Promise<LessonVideoView | null>;
}

function findLesson(outline: CourseOutline, slugOrId: string): OutlineLesson {
  const lesson = outline.lessons.find((l) => l.id === slugOrId || l.slug === slugOrId);
  if (!lesson) throw new AppError('not-found', 'No such lesson in this course.');
  return lesson;
}

/** A lesson page: its safe body and its kind's part when open, or why it is locked; previous/next in course order either way. */
export function lessonPages({
  db,
  reads,
  videos,
  clock,
  releases,
}: {
  db: Db;
  reads: CourseReads;
  /** Scheduled release: an open lesson still waits for its day, its body, video and kind withheld. */
  releases: ReleaseSchedule;
  /** When subscriptions' access is judged. */
  clock: Clock;
  /** Lesson videos: the lesson answer's `video`. */
  videos: LessonVideoViews;
}) {
  return {
    async lesson(courseSlugOrId: string, lessonSlugOrId: string, viewer: Viewer): Promise<LessonView> {
      const course = await reads.findCourse(courseSlugOrId);
      // The learner's side (purchases, completion, bookmark, video position) in one round trip.
      const mineOf = async (lessonId: string): Promise<queries.ViewerOfLesson> =>
        viewer.user
          ? queries.viewerOfLesson(db, course.id, lessonId, viewer.user.id, clock.now())
          : { purchases: [], completed: false, bookmarked: false, positionMs: 0 };
      // A lesson named by its id: the learner's side is read beside the outline rather than after it.
      const guessed = isUuid(lessonSlugOrId) ? lessonSlugOrId : null;
      const [outline, early] = await Promise.all([reads.outlineOf(course.id), guessed && mineOf(guessed)]);
      const lesson = findLesson(outline, lessonSlugOrId);
      const mine = early && guessed === lesson.id ? early : await mineOf(lesson.id);
      const access = entitlementFrom(mine.purchases, viewer);
      // Its release is said to those it would otherwise open to; others are told how to get it first.
      const mayOpen = access.full || lesson.free;
      const opens = mayOpen ? (await releases.forReader(outline, viewer.user?.id ?? null)).lesson(lesson) : null;
      const open = mayOpen && !opens;
      const [opened, products, video] = await Promise.all([
        open ? reads.lessonContent(lesson.id) : null,
        open ? [] : reads.productsOf(course.id),
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
        lock: open || full || lesson.free ? null : (lock as Lock),
        opens,
        body: opened?.body ?? null,
        content: opened?.content ?? null,
        products,
        completed: mine.completed,
        bookmarked: mine.bookmarked,
        video,
        previous: lessonLink(outline.lessons[lesson.index - 1]),
        next: lessonLink(outline.lessons[lesson.index + 1]),
      };
    },
  };
}
