import { Alert, Box, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useRecordContext, useTranslate } from 'react-admin';
import type { PurchaseTotals } from '@contract/commerce/schemas';
import type { Wire } from '@contract/shared/wire';
import { formatMoney } from '../common/money';
import { RelatedRows } from '../common/Rows';
import { retryUnanswered, type ConsoleDataProvider } from '../dataProvider';
import { PurchaseRows } from '../purchases/PurchaseRows';
import { GiveCourseButton } from './GiveCourseButton';
import type { User } from './types';

/** The person's lifetime totals, one row per currency (amounts in two currencies do not add up). */
function LifetimeTotals({ user }: { user: User }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data, error, isPending } = useQuery<Wire<PurchaseTotals>>({
    queryKey: ['purchase-totals', user.id],
    queryFn: ({ signal }) => dataProvider.getPurchaseTotals(user.id, { signal }).then((answer) => answer.data),
    retry: retryUnanswered,
  });
  if (error) return <Alert severity="error">{translate('resources.users.purchases.failed')}</Alert>;
  if (isPending)
    return (
      <Typography variant="body2" color="text.secondary" role="status">
        {translate('resources.users.purchases.loading')}
      </Typography>
    );
  if (data.currencies.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('resources.users.purchases.none')}
      </Typography>
    );
  const headings = [
    'resources.users.purchases.currency',
    'resources.users.purchases.paid',
    'resources.users.purchases.refunded',
    'resources.users.purchases.net',
    'resources.users.purchases.count',
    'resources.users.purchases.refunds',
    'resources.users.purchases.comps',
  ];
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-labelledby={`totals-${user.id}`}>
        <TableHead>
          <TableRow>
            {headings.map((heading) => (
              <TableCell key={heading} align={heading.endsWith('.currency') ? 'left' : 'right'}>
                {translate(heading)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {data.currencies.map((line) => (
            <TableRow key={line.currency} data-currency={line.currency}>
              <TableCell>{line.currency.toUpperCase()}</TableCell>
              <TableCell align="right">{formatMoney(line.paid, line.currency)}</TableCell>
              <TableCell align="right">{formatMoney(line.refunded, line.currency)}</TableCell>
              <TableCell align="right">{formatMoney(line.net, line.currency)}</TableCell>
              <TableCell align="right">{line.purchases}</TableCell>
              <TableCell align="right">{line.refunds}</TableCell>
              <TableCell align="right">{line.comps}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/**
 * The person's purchases on their page: lifetime totals per currency (GET /api/admin/users/:id/purchase-totals, the
 * same charges Finance lists), Give a course for support, and every purchase, newest first, each opening its page.
 */
export function PersonPurchases(_props: { label?: false }) {
  const user = useRecordContext<User>();
  const translate = useTranslate();
  if (!user) return null;
  return (
    <Box component="section" aria-labelledby={`purchases-${user.id}`} sx={{ width: '100%' }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography variant="h6" component="h2" id={`purchases-${user.id}`}>
          {translate('resources.users.purchases.title')}
        </Typography>
        <GiveCourseButton />
      </Stack>
      <Typography variant="subtitle1" component="h3" id={`totals-${user.id}`}>
        {translate('resources.users.purchases.totals')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('resources.users.purchases.totalsIntro')}
      </Typography>
      <LifetimeTotals user={user} />
      <Box sx={{ mt: 3 }}>
        <RelatedRows
          reference="purchases"
          target="userId"
          paginated
          rows={<PurchaseRows hide={['userId', 'country']} empty="resources.users.purchases.empty" detailed />}
        />
      </Box>
    </Box>
  );
}
