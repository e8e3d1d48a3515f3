import type { MouseEvent } from 'react';
import { Box, Link as MuiLink, Typography } from '@mui/material';
import { DateField, Link, useCreatePath, useRecordContext, useTranslate } from 'react-admin';
import { NAME_LABELS, WAITING_STATES } from './choices';
import { emailIdOf, errorOf, excerpt, type Job } from './types';

/** What Datagrid and the show layouts read off a field: its header (a catalog key) and how it sorts. */
interface FieldProps {
  source?: string;
  label?: string;
  sortable?: boolean;
  sortBy?: string;
}

/** The kind of job in words; on its page with the queue's own name beside it (what the logs say). */
export function JobNameField({ withName = false }: FieldProps & { withName?: boolean }) {
  const job = useRecordContext<Job>();
  const translate = useTranslate();
  if (!job) return null;
  const label = NAME_LABELS[job.name];
  return (
    <Typography component="span" variant="body2">
      {label ? translate(label) : job.name}
      {withName && label ? (
        <Typography component="span" variant="body2" color="text.secondary" sx={{ fontFamily: 'monospace', ml: 1 }}>
          {job.name}
        </Typography>
      ) : null}
    </Typography>
  );
}

/** Which run this is (or was last, or is next) of the runs it may have: "2 of 2". */
export function AttemptField(_props: FieldProps) {
  const job = useRecordContext<Job>();
  const translate = useTranslate();
  if (!job) return null;
  return (
    <Typography component="span" variant="body2" sx={{ whiteSpace: 'nowrap' }}>
      {translate('console.jobs.attemptOf', { attempt: job.retryCount + 1, limit: job.retryLimit + 1 })}
    </Typography>
  );
}

/** The failure's message: cut in a list (whole on hover), whole and wrapped on the job's page. */
export function ErrorField({ full = false }: FieldProps & { full?: boolean }) {
  const job = useRecordContext<Job>();
  if (!job) return null;
  const message = errorOf(job);
  if (!message) return <>—</>;
  if (full) {
    return (
      <Typography variant="body2" color="error" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {message}
      </Typography>
    );
  }
  return (
    <Typography
      component="span"
      variant="body2"
      color="error"
      title={message}
      sx={{ display: 'block', minWidth: 160, maxWidth: 360, wordBreak: 'break-word' }}
    >
      {excerpt(message)}
    </Typography>
  );
}

/** A job in a narrow list's line: its error, if any, then when it was created and which attempt it is at. */
export function JobSummary() {
  const job = useRecordContext<Job>();
  const translate = useTranslate();
  if (!job) return null;
  const message = errorOf(job);
  return (
    <Box component="span" sx={{ display: 'block' }}>
      {message ? (
        <Typography component="span" variant="body2" color="error" sx={{ display: 'block', wordBreak: 'break-word' }}>
          {excerpt(message)}
        </Typography>
      ) : null}
      <Typography component="span" variant="body2" color="text.secondary">
        <DateField source="createdOn" showTime /> ·{' '}
        {translate('console.jobs.attemptLine', { attempt: job.retryCount + 1, limit: job.retryLimit + 1 })}
      </Typography>
    </Box>
  );
}

/** When a queued job or a retry runs next; nothing for a job that is running or done. */
export function NextRunField(_props: FieldProps) {
  const job = useRecordContext<Job>();
  if (!job) return null;
  if (!WAITING_STATES.includes(job.state)) return <>—</>;
  return <DateField source="startAfter" showTime />;
}

/** A send-email job's email, as a link to its page in the outbox. */
export function EmailLinkField(_props: FieldProps) {
  const job = useRecordContext<Job>();
  const createPath = useCreatePath();
  const translate = useTranslate();
  if (!job) return null;
  const emailId = emailIdOf(job);
  if (!emailId) return <>—</>;
  return (
    <Box component="span">
      <MuiLink
        component={Link}
        to={createPath({ resource: 'outbox-emails', id: emailId, type: 'show' })}
        onClick={(event: MouseEvent) => event.stopPropagation()}
      >
        {translate('console.jobs.openEmail')}
      </MuiLink>
    </Box>
  );
}
