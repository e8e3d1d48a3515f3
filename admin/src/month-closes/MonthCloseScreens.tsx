import { useState } from 'react';
import DownloadIcon from '@mui/icons-material/Download';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import LockIcon from '@mui/icons-material/Lock';
import { Box, Button, Chip, CircularProgress, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import {
  Labeled,
  SimpleList,
  TextField,
  usePermissions,
  useDataProvider,
  useRecordContext,
  useTranslate,
  TopToolbar,
} from 'react-admin';
import { ConfirmActionDialog } from '../common/ActionDialog';
import { date } from '../common/columns';
import { dateRangeFilters } from '../common/inputs';
import { RecordList } from '../common/RecordList';
import { RecordShow } from '../common/RecordShow';
import { useConsoleAction } from '../common/useConsoleAction';
import type { ConsoleDataProvider } from '../dataProvider';
import { canWrite } from '../permissions';
import { FiguresTable } from './FiguresTable';
import { workbookHref, type MonthCloseRow } from './looks';

const words = (name: string) => `resources.month-closes.${name}`;

const filters = dateRangeFilters('closedAt', 'Closed');

/** Closes the month a close would freeze next, behind a confirmation that shows the figures it freezes. */
function CloseMonthDialog({ month, onClose }: { month: string; onClose(): void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const next = useQuery({ queryKey: ['month-closes', 'next'], queryFn: () => dataProvider.getNextMonthClose() });
  const close = useConsoleAction(
    async (provider) => ({ data: await provider.closeMonth(month) }),
    () => ({ message: words('close.done'), messageArgs: { month } }),
  );
  return (
    <ConfirmActionDialog
      title={translate(words('close.title'), { month })}
      question={translate(words('close.question'), { month })}
      details={words('close.details')}
      busyLabel={words('close.busy')}
      confirmLabel={translate(words('close.confirm'), { month })}
      failure={words('close.failure')}
      mutation={close}
      onClose={onClose}
    >
      <Box sx={{ mt: 2, overflowX: 'auto' }}>
        {next.data ? <FiguresTable figures={next.data.figures} /> : <CircularProgress size={20} />}
      </Box>
    </ConfirmActionDialog>
  );
}

/** The month to close next and its button, above the closed months; said plainly when it has not ended. */
function NextMonth() {
  const translate = useTranslate();
  const { permissions } = usePermissions();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [open, setOpen] = useState(false);
  const next = useQuery({ queryKey: ['month-closes', 'next'], queryFn: () => dataProvider.getNextMonthClose() });
  if (!next.data?.month || !canWrite(permissions, 'month-closes')) return null;
  const { month, ended } = next.data;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <Typography variant="body2">{translate(words(ended ? 'next.ended' : 'next.open'), { month })}</Typography>
      {ended ? (
        <Button size="small" variant="contained" startIcon={<LockIcon />} onClick={() => setOpen(true)}>
          {translate(words('close.button'), { month })}
        </Button>
      ) : null}
      {open ? <CloseMonthDialog month={month} onClose={() => setOpen(false)} /> : null}
    </Box>
  );
}

/** The closed month's workbook for the accountant (a download through the console's own route). */
function DownloadButton(_props: { label?: string }) {
  const record = useRecordContext<MonthCloseRow>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Button
      size="small"
      startIcon={<DownloadIcon />}
      href={workbookHref(record.month)}
      download
      onClick={(event) => event.stopPropagation()}
      sx={{ whiteSpace: 'nowrap' }}
    >
      {translate(words('download'), { month: record.month })}
    </Button>
  );
}

/** Every listed month is closed, for good. */
function ClosedChip(_props: { label?: string }) {
  const translate = useTranslate();
  return <Chip size="small" color="success" icon={<LockIcon />} label={translate(words('closed'))} />;
}

/**
 * On a phone, each closed month as two lines: the month, then who closed it when. A tap opens its frozen figures and
 * its workbook (a link inside the row's link would be invalid HTML and two targets under one thumb).
 */
function NarrowRows() {
  const translate = useTranslate();
  return (
    <SimpleList<MonthCloseRow>
      rowClick="show"
      primaryText={(m) => m.month}
      secondaryText={(m) =>
        `${translate(words('closed'))} ${new Date(m.closedAt).toLocaleDateString()} · ${m.closedByEmail ?? '—'}`
      }
    />
  );
}

/** Closed months, newest first, each with its workbook; the month to close next above them. */
export function MonthCloseList() {
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <RecordList
      filters={filters}
      icon={EventAvailableIcon}
      sort={{ field: 'month', order: 'DESC' }}
      actions={<NextMonth />}
      emptyAction={<NextMonth />}
      exporter={false}
      rows={narrow ? <NarrowRows /> : undefined}
    >
      <TextField source="month" sortable />
      <ClosedChip label={words('fields.status')} />
      {date('closedAt', { sortable: true })}
      <TextField source="closedByEmail" sortable={false} emptyText="—" />
      <DownloadButton label={words('fields.workbook')} />
    </RecordList>
  );
}

function FrozenFigures(_props: { label?: string }) {
  const record = useRecordContext<MonthCloseRow>();
  if (!record) return null;
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <FiguresTable figures={record.figures} />
    </Box>
  );
}

/** One closed month: when and by whom, the figures frozen then, and its workbook. */
export function MonthCloseShow() {
  return (
    <RecordShow
      actions={
        <TopToolbar>
          <DownloadButton />
        </TopToolbar>
      }
    >
      <TextField source="month" />
      {date('closedAt')}
      <TextField source="closedByEmail" emptyText="—" />
      <Labeled label={words('fields.figures')}>
        <FrozenFigures />
      </Labeled>
    </RecordShow>
  );
}
