import TaskAltIcon from '@mui/icons-material/TaskAlt';
import { lazyScreen } from '../common/lazyScreen';

const LessonProgressList = lazyScreen(() => import('./LessonProgressList'), 'LessonProgressList');
const LessonProgressShow = lazyScreen(() => import('./LessonProgressShow'), 'LessonProgressShow');

/** Read-only: learners write their progress from the storefront. */
export default {
  list: LessonProgressList,
  show: LessonProgressShow,
  icon: TaskAltIcon,
  recordRepresentation: (p: { lessonSlug: string | null; id: string }) => p.lessonSlug ?? p.id,
};
