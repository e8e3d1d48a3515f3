import WorkHistoryIcon from '@mui/icons-material/WorkHistory';
import { JobList } from './JobList';
import { JobShow } from './JobShow';
import type { Job } from './types';

/** Read-only but for the retry of a failed job (RetryButton.tsx); jobs are added by the API's own work. */
export default {
  list: JobList,
  show: JobShow,
  icon: WorkHistoryIcon,
  recordRepresentation: (job: Job) => job.name,
  options: { label: 'console.jobs.title' },
};
