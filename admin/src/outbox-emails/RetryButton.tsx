import { RetryButton as RetryRecordButton } from '../common/RetryButton';
import type { OutboxEmail } from './types';

/** Makes a failed email due again; shown on failed emails only. */
export function RetryButton() {
  return (
    <RetryRecordButton<OutboxEmail>
      failed={(email) => email.status === 'failed'}
      retry={(dataProvider, email) => dataProvider.retryOutboxEmail(email.id)}
      messages={{
        label: 'console.outbox.retry',
        retried: 'console.outbox.retried',
        retryFailed: 'console.outbox.retryFailed',
      }}
      succeeded={(email) => ({ to: email.toAddress })}
    />
  );
}
