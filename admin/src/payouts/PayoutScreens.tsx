import { useState } from 'react';
import PaymentsIcon from '@mui/icons-material/Payments';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import { Button, TextField as MuiTextField, useMediaQuery, type Theme } from '@mui/material';
import {
  ReferenceField,
  SelectField,
  SimpleList,
  TextField,
  TopToolbar,
  usePermissions,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { formatMoney } from '../../../api/src/shared/money';
import { ConfirmActionDialog } from '../common/ActionDialog';
import { date, money, ref, status } from '../common/columns';
import { NoneFound } from '../common/EmptyState';
import { choiceFilter, referenceFilter } from '../common/filters';
import { dateRangeFilters } from '../common/inputs';
import { RecordList } from '../common/RecordList';
import { RecordShow } from '../common/RecordShow';
import { useConsoleAction } from '../common/useConsoleAction';
import { canWrite } from '../permissions';
import { PAYOUT_METHOD_CHOICES, PAYOUT_STATUS_CHOICES, PAYOUT_STATUS_LOOKS, type PayoutRecord } from './looks';

const words = (name: string) => `resources.payouts.${name}`;

const filters = [
  choiceFilter('status', PAYOUT_STATUS_CHOICES),
  referenceFilter('recipientId', 'users', { alwaysOn: true }),
  choiceFilter('method', PAYOUT_METHOD_CHOICES, false),
  ...dateRangeFilters('createdAt', 'Created'),
];

/** Run payouts, behind a confirmation: what the run does is said before it starts. */
function RunPayoutsButton() {
  const translate = useTranslate();
  const { permissions } = usePermissions();
  const [open, setOpen] = useState(false);
  const run = useConsoleAction(
    (dataProvider) => dataProvider.runPayouts(),
    (answer) => ({ message: words('run.done'), messageArgs: { ...answer } }),
  );
  if (!canWrite(permissions, 'payouts')) return null;
  return (
    <>
      <Button size="small" startIcon={<PlayArrowIcon />} onClick={() => setOpen(true)}>
        {translate(words('run.button'))}
      </Button>
      {open ? (
        <ConfirmActionDialog
          title={words('run.title')}
          question={words('run.question')}
          details={words('run.details')}
          busyLabel={words('run.busy')}
          confirmLabel={words('run.confirm')}
          failure={words('run.failure')}
          mutation={run}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}

function MarkPaidDialog({ payout, onClose }: { payout: PayoutRecord; onClose(): void }) {
  const translate = useTranslate();
  const [reference, setReference] = useState('');
  const mark = useConsoleAction(
    (dataProvider) => dataProvider.markPayoutPaid(payout.id, reference.trim()),
    () => words('markPaid.done'),
  );
  return (
    <ConfirmActionDialog
      title={words('markPaid.title')}
      question={words('markPaid.question')}
      details={words('markPaid.details')}
      busyLabel={words('markPaid.busy')}
      confirmLabel={words('markPaid.confirm')}
      failure={words('markPaid.failure')}
      mutation={mark}
      onClose={onClose}
    >
      <MuiTextField
        label={translate(words('markPaid.reference'))}
        value={reference}
        onChange={(event) => setReference(event.target.value)}
        required
        fullWidth
        margin="normal"
        slotProps={{ htmlInput: { maxLength: 200 } }}
      />
    </ConfirmActionDialog>
  );
}

/** Mark paid, on a manual payout not yet paid: the money went by bank transfer, its reference says which. */
export function MarkPaidButton(_props: { label?: string }) {
  const payout = useRecordContext<PayoutRecord>();
  const { permissions } = usePermissions();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!payout || payout.status === 'paid' || payout.method !== 'manual' || !canWrite(permissions, 'payouts'))
    return null;
  return (
    <>
      <Button
        size="small"
        startIcon={<TaskAltIcon />}
        sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
        onClick={(event) => {
          event.stopPropagation();
          setOpen(true);
        }}
      >
        {translate(words('markPaid.button'))}
      </Button>
      {open ? <MarkPaidDialog payout={payout} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/** On a phone, each payout as two lines that open it: whom, then how much and where it stands, then when. */
function NarrowRows() {
  const translate = useTranslate();
  return (
    <SimpleList<PayoutRecord>
      rowClick="show"
      primaryText={<ReferenceField source="recipientId" reference="users" link={false} />}
      secondaryText={(p) => `${formatMoney(p.amount, p.currency)} · ${translate(PAYOUT_STATUS_LOOKS[p.status].label)}`}
      tertiaryText={(p) => new Date(p.createdAt).toLocaleDateString()}
      empty={<NoneFound>{translate(words('noneFound'))}</NoneFound>}
    />
  );
}

/** Payouts, newest first: pending ones are paid by hand and marked paid here; a run makes the month's. */
export function PayoutList() {
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <RecordList
      filters={filters}
      icon={PaymentsIcon}
      actions={<RunPayoutsButton />}
      emptyAction={<RunPayoutsButton />}
      rows={narrow ? <NarrowRows /> : undefined}
    >
      {date('createdAt', { sortable: true })}
      {ref('recipientId', 'users')}
      {money('amount', { sortable: true })}
      <SelectField source="method" choices={PAYOUT_METHOD_CHOICES} />
      {status(PAYOUT_STATUS_LOOKS, 'status', { sortable: true })}
      <TextField source="reference" emptyText="—" />
      <TextField source="error" emptyText="" />
      {date('paidAt', { sortable: true })}
      <MarkPaidButton label="resources.payouts.fields.actions" />
    </RecordList>
  );
}

/** One payout: whom, how much, how it was sent, and the reference or the error. */
export function PayoutShow() {
  return (
    <RecordShow
      actions={
        <TopToolbar>
          <MarkPaidButton />
        </TopToolbar>
      }
    >
      {ref('recipientId', 'users')}
      {money('amount')}
      <TextField source="currency" />
      <SelectField source="method" choices={PAYOUT_METHOD_CHOICES} />
      {status(PAYOUT_STATUS_LOOKS)}
      <TextField source="reference" emptyText="—" />
      <TextField source="error" emptyText="—" />
      <TextField source="idempotencyKey" />
      {date('createdAt')}
      {date('paidAt')}
      <TextField source="runId" />
      <TextField source="id" />
    </RecordShow>
  );
}
