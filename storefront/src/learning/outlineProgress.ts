import { courseLength } from '../../../api/src/shared/course-length';
import type { CourseView, LessonItem, Progress } from '../api/learning';

/** Every lesson of a course in reading order: module by module, its own lessons, then its sections'. */
export function lessonsInOrder(view: CourseView): LessonItem[] {
  return view.modules.flatMap((m) => [...m.lessons, ...m.sections.flatMap((s) => s.lessons)]);
}

function progressOf(lessons: LessonItem[]): Progress {
  const completed = lessons.filter((l) => l.completed).length;
  const total = lessons.length;
  return { completed, total, percent: total ? Math.round((completed / total) * 100) : 0 };
}

/**
 * The outline as it is once this lesson was marked complete (or not) on the lesson page, so the outline beside it
 * follows the button (or the video) without asking the API again; the counts and minutes left are the API's
 * (api/src/learning/outline.ts).
 */
export function withLessonCompleted(view: CourseView, lessonId: string, completed: boolean): CourseView {
  const mark = (lessons: LessonItem[]) => lessons.map((l) => (l.id === lessonId ? { ...l, completed } : l));
  const modules = view.modules.map((m) => {
    const lessons = mark(m.lessons);
    const sections = m.sections.map((s) => {
      const marked = mark(s.lessons);
      return { ...s, lessons: marked, progress: progressOf(marked) };
    });
    return { ...m, lessons, sections, progress: progressOf([...lessons, ...sections.flatMap((s) => s.lessons)]) };
  });
  const next = { ...view, modules };
  const lessons = lessonsInOrder(next);
  return { ...next, progress: progressOf(lessons), minutesLeft: minutesOf(lessons.filter((l) => !l.completed)) };
}

/** The minutes these lessons take, as the API counts minutesLeft: null when one's length is unknown. */
const minutesOf = (lessons: LessonItem[]) =>
  lessons.length === 0 ? 0 : courseLength(lessons.map((l) => l.durationMinutes));

/** Every lesson done: the course is complete. */
export const isComplete = (progress: Progress) => progress.total > 0 && progress.completed === progress.total;
