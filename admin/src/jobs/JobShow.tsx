import {
  DateField,
  FunctionField,
  ListButton,
  NumberField,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { status } from '../common/columns';
import { JsonBlock } from '../common/JsonBlock';
import { NAME_LABELS, STATE_LOOKS } from './choices';
import { AttemptField, EmailLinkField, ErrorField, JobNameField } from './fields';
import { RetryButton } from './RetryButton';
import { emailIdOf, type Job } from './types';

function JobTitle() {
  const job = useRecordContext<Job>();
  const translate = useTranslate();
  if (!job) return <>{translate('console.jobs.job')}</>;
  const label = NAME_LABELS[job.name];
  return <>{translate('console.jobs.showTitle', { name: label ? translate(label) : job.name })}</>;
}

function Actions() {
  return (
    <TopToolbar>
      <RetryButton />
      <ListButton />
    </TopToolbar>
  );
}

/** Every field of the job; a send-email job links to its email. */
function JobFields() {
  const job = useRecordContext<Job>();
  const hasEmail = job ? emailIdOf(job) !== null : false;
  return (
    <SimpleShowLayout>
      <JobNameField source="name" label="resources.jobs.fields.name" withName />
      {status(STATE_LOOKS, 'state')}
      <ErrorField label="console.jobs.error" full />
      <AttemptField label="console.jobs.attempts" />
      <NumberField source="retryCount" />
      <NumberField source="retryLimit" />
      {hasEmail ? <EmailLinkField label="console.jobs.email" /> : null}
      <FunctionField<Job>
        source="data"
        render={(record) => <JsonBlock value={record.data} label="resources.jobs.fields.data" />}
      />
      <FunctionField<Job>
        source="output"
        render={(record) => <JsonBlock value={record.output} label="resources.jobs.fields.output" />}
      />
      <DateField source="createdOn" showTime />
      <DateField source="startAfter" showTime />
      <DateField source="startedOn" showTime emptyText="—" />
      <DateField source="completedOn" showTime emptyText="—" />
      <TextField source="id" />
    </SimpleShowLayout>
  );
}

export function JobShow() {
  return (
    <Show actions={<Actions />} title={<JobTitle />}>
      <JobFields />
    </Show>
  );
}
