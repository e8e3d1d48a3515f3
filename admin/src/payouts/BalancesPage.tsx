import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Card,
  CardContent,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { Link, useDataProvider, useTranslate } from 'react-admin';
import type { PayoutBalance } from '@contract/finance/payouts/schemas';
import { formatMoney } from '../../../api/src/shared/money';
import { ConsolePage } from '../common/ConsolePage';
import { PageLoading } from '../common/PageLoading';
import { retryUnanswered, type ConsoleDataProvider } from '../dataProvider';

const words = (name: string) => `resources.payouts.balances.${name}`;

const AMOUNTS = ['earned', 'clawedBack', 'paid', 'inPayouts', 'balance', 'payable'] as const;

/** On a phone, a table of eight columns would hide the balance off to the side: each recipient is a block instead. */
function NarrowBalances({ balances }: { balances: PayoutBalance[] }) {
  const translate = useTranslate();
  return (
    <Box component="ul" aria-label={translate(words('title'))} sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {balances.map((b) => (
        <Box
          component="li"
          key={`${b.recipientId}-${b.currency}`}
          sx={{ py: 1.5, borderBottom: 1, borderColor: 'divider', '&:last-child': { borderBottom: 0 } }}
        >
          <Typography variant="subtitle2" component="p">
            <Link to={`/users/${b.recipientId}/show`}>{b.recipientName || b.recipientEmail}</Link> ·{' '}
            {b.currency.toUpperCase()}
          </Typography>
          <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto auto', columnGap: 2, m: 0, mt: 0.5 }}>
            {/* What finance looks for first: the balance and what a run would pay now. */}
            {(['balance', 'payable', 'earned', 'clawedBack', 'paid', 'inPayouts'] as const).map((field) => (
              <Box key={field} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {translate(words(field))}
                </Typography>
                <Typography
                  component="dd"
                  variant="body2"
                  sx={{ m: 0, textAlign: 'right', color: b[field] < 0 ? 'error.main' : undefined }}
                >
                  {formatMoney(b[field], b.currency)}
                </Typography>
              </Box>
            ))}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

/** Each recipient's money per currency, from the split ledger and the payouts (finance and admins). */
export default function BalancesPage() {
  const translate = useTranslate();
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const query = useQuery<PayoutBalance[]>({
    queryKey: ['payouts', 'getPayoutBalances'],
    queryFn: ({ signal }) => dataProvider.getPayoutBalances({ signal }).then(({ data }) => data),
    retry: retryUnanswered,
  });
  return (
    <ConsolePage title={translate(words('title'))} intro={translate(words('intro'))}>
      <Card>
        <CardContent sx={{ overflowX: 'auto' }}>
          {query.isPending ? <PageLoading /> : null}
          {query.isError ? <Alert severity="error">{translate(words('failure'))}</Alert> : null}
          {query.data && query.data.length === 0 ? <Alert severity="info">{translate(words('empty'))}</Alert> : null}
          {query.data && query.data.length > 0 && narrow ? <NarrowBalances balances={query.data} /> : null}
          {query.data && query.data.length > 0 && !narrow ? (
            <Table size="small" aria-label={translate(words('title'))}>
              <TableHead>
                <TableRow>
                  <TableCell>{translate(words('recipient'))}</TableCell>
                  <TableCell>{translate(words('currency'))}</TableCell>
                  {AMOUNTS.map((field) => (
                    <TableCell key={field} align="right">
                      {translate(words(field))}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {query.data.map((b) => (
                  <TableRow key={`${b.recipientId}-${b.currency}`}>
                    <TableCell>
                      <Link to={`/users/${b.recipientId}/show`}>{b.recipientName || b.recipientEmail}</Link>
                    </TableCell>
                    <TableCell>{b.currency.toUpperCase()}</TableCell>
                    {AMOUNTS.map((field) => (
                      <TableCell
                        key={field}
                        align="right"
                        sx={{ color: b[field] < 0 ? 'error.main' : undefined, whiteSpace: 'nowrap' }}
                      >
                        {formatMoney(b[field], b.currency)}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          ) : null}
        </CardContent>
      </Card>
    </ConsolePage>
  );
}
