import QuizIcon from '@mui/icons-material/Quiz';
import { lazyScreen } from '../common/lazyScreen';

const QuizAttemptList = lazyScreen(() => import('./QuizAttemptList'), 'QuizAttemptList');
const QuizAttemptShow = lazyScreen(() => import('./QuizAttemptShow'), 'QuizAttemptShow');

/** Read-only: learners send their attempts from the storefront; a quiz's figures are on its lesson's page. */
export default {
  list: QuizAttemptList,
  show: QuizAttemptShow,
  icon: QuizIcon,
  recordRepresentation: (a: { number: number; id: string }) => `#${a.number}`,
};
