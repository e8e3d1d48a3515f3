import PendingActionsIcon from '@mui/icons-material/PendingActions';
import ReplayIcon from '@mui/icons-material/Replay';
import { Box, Button, useMediaQuery, type Theme } from '@mui/material';
import { SelectInput, SimpleList, useListContext, useTranslate, type SortPayload } from 'react-admin';
import { date, status } from '../common/columns';
import { NoneFound } from '../common/EmptyState';
import { dateRangeFilters } from '../common/inputs';
import { BulkActionButton } from '../common/BulkActionButton';
import { RecordList } from '../common/RecordList';
import { NAME_CHOICES, STATE_CHOICES, STATE_LOOKS } from './choices';
import { AttemptField, ErrorField, JobNameField, JobSummary, NextRunField } from './fields';
import { RetryButton } from './RetryButton';

const filters = [
  <SelectInput key="state" source="state" choices={STATE_CHOICES} alwaysOn />,
  <SelectInput key="name" source="name" choices={NAME_CHOICES} alwaysOn />,
  ...dateRangeFilters('createdOn', { from: 'console.jobs.createdFrom', until: 'console.jobs.createdUntil' }),
];

const NEWEST_FIRST: SortPayload = { field: 'createdOn', order: 'DESC' };

/** One click to what needs an operator: the failed jobs (and back to every job). */
function FailedOnlyButton() {
  const { filterValues, displayedFilters, setFilters } = useListContext();
  const translate = useTranslate();
  const on = filterValues.state === 'failed';
  return (
    <Button
      size="small"
      color="error"
      variant={on ? 'contained' : 'outlined'}
      aria-pressed={on}
      aria-label={translate('console.jobs.failedOnlyLabel')}
      onClick={() => {
        const { state: _state, ...others } = filterValues as Record<string, unknown>;
        setFilters(on ? others : { ...others, state: 'failed' }, displayedFilters);
      }}
    >
      {translate('console.jobs.failedOnly')}
    </Button>
  );
}

/** The selected failed jobs run again at once (the others are said to be skipped). */
const bulkActions = <BulkActionButton action="jobs/retry" icon={<ReplayIcon />} />;

/** On a phone: one line per job (its name, state, error and when), opening its page, where a failed one is retried. */
function NarrowRows() {
  const translate = useTranslate();
  return (
    <SimpleList
      rowClick="show"
      primaryText={
        <Box component="span" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
          <JobNameField />
          {status(STATE_LOOKS, 'state')}
        </Box>
      }
      secondaryText={<JobSummary />}
      empty={<NoneFound>{translate('console.jobs.empty.noMatch')}</NoneFound>}
    />
  );
}

/** The job queue: what ran, what waits, what failed and why; failed jobs are retried from their row or page. */
export function JobList() {
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <RecordList
      filters={filters}
      actions={<FailedOnlyButton />}
      bulkActionButtons={bulkActions}
      rows={narrow ? <NarrowRows /> : undefined}
      sort={NEWEST_FIRST}
      icon={PendingActionsIcon}
      texts={{
        title: 'console.jobs.empty.title',
        body: 'console.jobs.empty.body',
        noMatch: 'console.jobs.empty.noMatch',
      }}
      title="console.jobs.title"
    >
      <JobNameField source="name" label="resources.jobs.fields.name" />
      {status(STATE_LOOKS, 'state')}
      <AttemptField label="console.jobs.attempts" sortBy="retryCount" />
      <ErrorField label="console.jobs.error" sortable={false} />
      {date('createdOn')}
      <NextRunField label="console.jobs.nextRun" sortBy="startAfter" />
      <RetryButton />
    </RecordList>
  );
}
