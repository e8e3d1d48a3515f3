import { Link as MuiLink } from '@mui/material';
import { Link, useCreatePath } from 'react-admin';
import { TotalsRow } from '../common/Figures';
import type { SupportSummary } from './types';

/** A count that opens the list it counts (the disputes still open, the emails that failed). */
function CountLink({ count, resource, filter }: { count: number; resource: string; filter: object }) {
  const createPath = useCreatePath();
  const to = `${createPath({ resource, type: 'list' })}?filter=${encodeURIComponent(JSON.stringify(filter))}`;
  return (
    <MuiLink component={Link} to={to} underline="hover">
      {count}
    </MuiLink>
  );
}

/** Support's headline figures: sales and refunds counted, disputes still open, failed emails, active learners. */
export function SupportTotals({ totals }: { totals: SupportSummary['totals'] }) {
  return (
    <TotalsRow
      figures={[
        ['finance.dashboard.purchases', totals.purchases, 'finance.dashboard.purchasesHint'],
        ['finance.dashboard.refunds', totals.refunds, 'finance.dashboard.refundsHint'],
        [
          'finance.dashboard.openDisputes',
          <CountLink count={totals.openDisputes} resource="merchant-disputes" filter={{ status: 'open' }} />,
          'finance.dashboard.openDisputesHint',
        ],
        [
          'finance.dashboard.failedEmails',
          <CountLink count={totals.failedEmails} resource="outbox-emails" filter={{ status: 'failed' }} />,
          'finance.dashboard.failedEmailsHint',
        ],
        ['finance.dashboard.activeLearners', totals.activeLearners, 'finance.dashboard.activeLearnersHint'],
      ]}
    />
  );
}
