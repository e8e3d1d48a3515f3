import { useQuery } from '@tanstack/react-query';
import { Alert, Card, CardContent, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { Link, useDataProvider, useTranslate } from 'react-admin';
import type { PayoutBalance } from '@contract/finance/payouts/schemas';
import { formatMoney } from '../../../api/src/shared/money';
import { ConsolePage } from '../common/ConsolePage';
import { PageLoading } from '../common/PageLoading';
import { retryUnanswered, type ConsoleDataProvider } from '../dataProvider';

const words = (name: string) => `resources.payouts.balances.${name}`;

const AMOUNTS = ['earned', 'clawedBack', 'paid', 'inPayouts', 'balance', 'payable'] as const;

/** Each recipient's money per currency, from the split ledger and the payouts (finance and admins). */
export default function BalancesPage() {
  const translate = useTranslate();
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
          {query.data && query.data.length > 0 ? (
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
