import type { CourseView } from '../../api/learning';
import { lessonsInOrder } from '../../learning/outlineProgress';
import { courseLength } from '../../../../api/src/shared/course-length';
import { plural } from '../../../../api/src/shared/words';
import { formatMinutes } from '../product/salesText';

/**
 * The course's length in words, for its page and the outline beside a lesson: "45 min left" for a learner who
 * studies it (the lessons they have not completed; nothing once every lesson is done), else "2 h 10 min in all".
 * A length only when every lesson counted has one (shared/course-length.ts); else how many lessons ("9 lessons",
 * "3 lessons left"). (Not in learning/outlineProgress.ts, which the home page loads: the sales page's words stay out
 * of its JavaScript.)
 */
export function courseMinutes(view: CourseView, studying: boolean): string | null {
  const all = lessonsInOrder(view);
  const counted = studying ? all.filter((l) => !l.completed) : all;
  if (counted.length === 0) return null;
  const minutes = courseLength(counted.map((l) => l.durationMinutes));
  const suffix = studying ? 'left' : 'in all';
  if (minutes) return `${formatMinutes(minutes)} ${suffix}`;
  return studying ? `${plural(counted.length, 'lesson')} left` : plural(counted.length, 'lesson');
}
