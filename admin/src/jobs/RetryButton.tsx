import { RetryButton as RetryRecordButton } from '../common/RetryButton';
import { NAME_LABELS } from './choices';
import type { Job } from './types';

/** Runs a failed job again; shown on failed jobs only. */
export function RetryButton() {
  return (
    <RetryRecordButton<Job>
      failed={(job) => job.state === 'failed'}
      retry={(dataProvider, job) => dataProvider.retryJob(job.id)}
      messages={{
        label: 'console.jobs.retry',
        retried: 'console.jobs.retried',
        retryFailed: 'console.jobs.retryFailed',
      }}
      succeeded={(job, translate) => ({ name: NAME_LABELS[job.name] ? translate(NAME_LABELS[job.name]!) : job.name })}
    />
  );
}
