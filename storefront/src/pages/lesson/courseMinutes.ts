import type { CourseView } from '../../api/learning';
import { formatMinutes } from '../product/salesText';

/**
 * The course's length in words, for its page and the outline beside a lesson: "45 min left" for a learner who
 * studies it (the lessons they have not completed; nothing once every lesson of known length is done), else
 * "2 h 10 min in all"; null when no lesson has a length. (Not in learning/outlineProgress.ts, which the home page
 * loads: the sales page's words stay out of its JavaScript.)
 */
export function courseMinutes(view: CourseView, studying: boolean): string | null {
  if (view.totalMinutes === 0) return null;
  if (!studying) return `${formatMinutes(view.totalMinutes)} in all`;
  return view.minutesLeft > 0 ? `${formatMinutes(view.minutesLeft)} left` : null;
}
