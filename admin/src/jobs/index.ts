import WorkHistoryIcon from '@mui/icons-material/WorkHistory';
import type { Job } from './types';
import { lazyScreen } from '../common/lazyScreen';

const JobList = lazyScreen(() => import('./JobList'), 'JobList');
const JobShow = lazyScreen(() => import('./JobShow'), 'JobShow');

/** Read-only but for the retry of a failed job (RetryButton.tsx); jobs are added by the API's own work. */
export default {
  list: JobList,
  show: JobShow,
  icon: WorkHistoryIcon,
  recordRepresentation: (job: Job) => job.name,
  options: { label: 'console.jobs.title' },
};
