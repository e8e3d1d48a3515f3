import TaskAltIcon from '@mui/icons-material/TaskAlt';
import { LessonProgressList } from './LessonProgressList';
import { LessonProgressShow } from './LessonProgressShow';

/** Read-only: learners write their progress from the storefront. */
export default {
  list: LessonProgressList,
  show: LessonProgressShow,
  icon: TaskAltIcon,
  recordRepresentation: (p: { lessonSlug: string | null; id: string }) => p.lessonSlug ?? p.id,
};
