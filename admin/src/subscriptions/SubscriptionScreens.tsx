import AutorenewIcon from '@mui/icons-material/Autorenew';
import { useState } from 'react';
import { Button, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import {
  FunctionField,
  Link,
  TopToolbar,
  useGetList,
  usePermissions,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { auditActionInWords } from '../../../api/src/shared/audit-actions';
import { date, money, ref, status, text } from '../common/columns';
import { choiceFilter, referenceFilter } from '../common/filters';
import { dateRangeFilters } from '../common/inputs';
import { formatMoney } from '../common/money';
import { RecordList } from '../common/RecordList';
import { RecordShow } from '../common/RecordShow';
import { rolesOf } from '../permissions';
import {
  INTERVAL_CHOICES,
  PERIOD_OUTCOME,
  PERIOD_OUTCOME_CHOICES,
  SUBSCRIPTION_STATUS,
  SUBSCRIPTION_STATUS_CHOICES,
  type PeriodRecord,
  type SubscriptionRecord,
} from './looks';
import { CancelDialog, RefundPeriodDialog } from './SubscriptionActions';

const filters = [
  choiceFilter('status', SUBSCRIPTION_STATUS_CHOICES),
  referenceFilter('productId', 'products', { alwaysOn: true }),
  referenceFilter('userId', 'users', { alwaysOn: true }),
  choiceFilter('interval', INTERVAL_CHOICES, false),
  ...dateRangeFilters('createdAt', 'Subscribed'),
];

const mayEnd = (permissions: unknown) => rolesOf(permissions).some((r) => ['admin', 'support', 'finance'].includes(r));
const mayRefund = (permissions: unknown) => rolesOf(permissions).some((r) => r === 'admin' || r === 'finance');

/** Memberships' subscriptions, newest first, each with its status now. */
export function SubscriptionList() {
  const translate = useTranslate();
  return (
    <RecordList filters={filters} icon={AutorenewIcon}>
      {ref('userId', 'users')}
      {ref('productId', 'products')}
      {status(SUBSCRIPTION_STATUS)}
      {text('interval')}
      {money('amount')}
      <FunctionField<SubscriptionRecord>
        source="instalments"
        sortable={false}
        render={(s) =>
          s.instalments
            ? translate('resources.subscriptions.instalmentsPaid', { paid: s.paidPeriods, of: s.instalments })
            : ''
        }
      />
      {date('currentPeriodEnd', { sortable: true })}
      <FunctionField<SubscriptionRecord>
        source="cancelAtPeriodEnd"
        sortable={false}
        render={(s) => (s.cancelAtPeriodEnd ? '✓' : '')}
      />
      {date('createdAt', { sortable: true })}
    </RecordList>
  );
}

/** Each billed period: its dates, outcome, charge and invoice; a paid one can be refunded (finance). */
function Periods(_props: { label?: string }) {
  const subscription = useRecordContext<SubscriptionRecord>();
  const translate = useTranslate();
  const { permissions } = usePermissions();
  const [refunding, setRefunding] = useState<PeriodRecord | null>(null);
  const { data = [] } = useGetList<PeriodRecord>(
    'subscription-periods',
    {
      filter: { subscriptionId: subscription?.id },
      sort: { field: 'periodStart', order: 'ASC' },
      pagination: { page: 1, perPage: 100 },
    },
    { enabled: Boolean(subscription) },
  );
  if (!subscription) return null;
  return (
    <>
      <Table size="small" aria-label={translate('resources.subscriptions.periods.title')} sx={{ width: 'auto' }}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('resources.subscriptions.periods.period')}</TableCell>
            <TableCell>{translate('resources.subscriptions.periods.outcome')}</TableCell>
            <TableCell align="right">{translate('resources.subscriptions.periods.paid')}</TableCell>
            <TableCell align="right">{translate('resources.subscriptions.periods.refunded')}</TableCell>
            <TableCell>{translate('resources.subscriptions.periods.invoice')}</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {data.map((p) => (
            <TableRow key={p.id}>
              <TableCell>
                {p.periodStart.slice(0, 10)} – {p.periodEnd.slice(0, 10)}
              </TableCell>
              <TableCell>{PERIOD_OUTCOME[p.outcome]?.label ?? p.outcome}</TableCell>
              <TableCell align="right">{p.amount === null ? '—' : formatMoney(p.amount, p.currency!)}</TableCell>
              <TableCell align="right">{p.refundedAmount ? formatMoney(p.refundedAmount, p.currency!) : '—'}</TableCell>
              <TableCell>
                {p.invoiceId ? (
                  <Link to={`/invoices/${p.invoiceId}/show`}>{translate('resources.subscriptions.periods.open')}</Link>
                ) : (
                  '—'
                )}
              </TableCell>
              <TableCell>
                {p.outcome === 'paid' && p.amount !== null && p.refundedAmount < p.amount && mayRefund(permissions) ? (
                  <Button size="small" onClick={() => setRefunding(p)}>
                    {translate('resources.subscriptions.refund.button')}
                  </Button>
                ) : null}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {refunding ? <RefundPeriodDialog period={refunding} onClose={() => setRefunding(null)} /> : null}
    </>
  );
}

interface AuditEntry {
  id: number;
  createdAt: string;
  action: string;
  actorEmail: string | null;
  after: { reason?: string } | null;
}

/** What happened to the subscription, newest first: each period billed and each staff action with its reason. */
function Timeline(_props: { label?: string }) {
  const subscription = useRecordContext<SubscriptionRecord>();
  const translate = useTranslate();
  const enabled = { enabled: Boolean(subscription) };
  const { data: periods = [] } = useGetList<PeriodRecord>(
    'subscription-periods',
    { filter: { subscriptionId: subscription?.id }, pagination: { page: 1, perPage: 100 } },
    enabled,
  );
  const { data: actions = [] } = useGetList<AuditEntry>(
    'audit-logs',
    { filter: { resource: 'subscriptions', recordId: subscription?.id }, pagination: { page: 1, perPage: 100 } },
    enabled,
  );
  const events = [
    ...periods.map((p) => ({
      key: `p-${p.id}`,
      at: p.createdAt,
      text: translate(`resources.subscriptions.timeline.${p.outcome}`, {
        amount: p.amount === null ? '' : formatMoney(p.amount, p.currency!),
        end: p.periodEnd.slice(0, 10),
      }),
    })),
    ...actions.map((a) => ({
      key: `a-${a.id}`,
      at: a.createdAt,
      text: `${auditActionInWords(a.action)} · ${a.actorEmail ?? ''}${a.after?.reason ? ` · ${a.after.reason}` : ''}`,
    })),
  ].sort((a, b) => b.at.localeCompare(a.at));
  return (
    <ul aria-label={translate('resources.subscriptions.timeline.title')} style={{ margin: 0, paddingLeft: '1.2em' }}>
      {events.map((e) => (
        <li key={e.key}>
          <Typography variant="body2" component="span">
            {new Date(e.at).toLocaleString()} — {e.text}
          </Typography>
        </li>
      ))}
    </ul>
  );
}

function Actions() {
  const subscription = useRecordContext<SubscriptionRecord>();
  const translate = useTranslate();
  const { permissions } = usePermissions();
  const [open, setOpen] = useState(false);
  if (!subscription || !mayEnd(permissions)) return <TopToolbar />;
  const live = ['trialing', 'active', 'past_due'].includes(subscription.status);
  return (
    <TopToolbar>
      {live ? (
        <Button color="error" onClick={() => setOpen(true)}>
          {translate('resources.subscriptions.cancel.button')}
        </Button>
      ) : null}
      {open ? <CancelDialog subscription={subscription} onClose={() => setOpen(false)} /> : null}
    </TopToolbar>
  );
}

export function SubscriptionShow() {
  return (
    <RecordShow actions={<Actions />}>
      {ref('userId', 'users')}
      {ref('productId', 'products')}
      {status(SUBSCRIPTION_STATUS)}
      {text('interval')}
      {money('amount')}
      {date('currentPeriodStart')}
      {date('currentPeriodEnd')}
      <FunctionField<SubscriptionRecord> source="cancelAtPeriodEnd" render={(s) => (s.cancelAtPeriodEnd ? '✓' : '—')} />
      {date('graceUntil', { emptyText: '—' })}
      <Periods label="resources.subscriptions.periods.title" />
      <Timeline label="resources.subscriptions.timeline.title" />
      {date('createdAt')}
      {text('id')}
    </RecordShow>
  );
}

/** Every billed period of every subscription, newest first. */
export function SubscriptionPeriodList() {
  return (
    <RecordList
      filters={[choiceFilter('outcome', PERIOD_OUTCOME_CHOICES), ...dateRangeFilters('periodStart', 'Period start')]}
      icon={AutorenewIcon}
      sort={{ field: 'periodStart', order: 'DESC' }}
    >
      {ref('subscriptionId', 'subscriptions')}
      {date('periodStart', { sortable: true })}
      {date('periodEnd')}
      {status(PERIOD_OUTCOME, 'outcome')}
      {money('amount')}
      {money('refundedAmount')}
      {ref('invoiceId', 'invoices', { emptyText: '—' })}
    </RecordList>
  );
}
