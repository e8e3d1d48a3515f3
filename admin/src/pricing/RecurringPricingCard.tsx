import { Card, CardContent, Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import type { RecurringPricing } from '@contract/pricing-simulator/recurring';
import { formatMoney } from '../common/money';
import type { ConsoleDataProvider } from '../dataProvider';

/**
 * How the simulated product is paid over time, beside its one-time price: a membership's price each interval with its
 * trial (and a month's worth), or a payment plan's N instalments and what they come to.
 */
export function RecurringPricingCard({ productId }: { productId: string }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data } = useQuery<RecurringPricing>({
    queryKey: ['pricing-recurring', productId],
    queryFn: ({ signal }) => dataProvider.recurringPricing(productId, { signal }).then((answer) => answer.data),
    retry: false,
  });
  if (!data || (!data.membership && !data.plan)) return null;
  const t = (key: string, args?: Record<string, unknown>) => translate(`resources.subscriptions.pricing.${key}`, args);
  const rows: [string, string][] = [];
  if (data.oneTime) rows.push([t('oneTime'), formatMoney(data.oneTime.amount, data.oneTime.currency)]);
  if (data.membership) {
    for (const p of data.membership.prices)
      rows.push([
        t(p.interval === 'year' ? 'yearly' : 'monthly'),
        t('perPeriod', {
          amount: formatMoney(p.perPeriod, p.currency),
          monthly: formatMoney(p.monthly, p.currency),
        }),
      ]);
    rows.push([t('trial'), data.membership.trialDays ? t('trialDays', { days: data.membership.trialDays }) : '—']);
  }
  if (data.plan) {
    const { instalments, instalmentAmount, total, currency, aboveOneTime } = data.plan;
    rows.push([
      t('plan'),
      t('instalments', {
        count: instalments,
        amount: formatMoney(instalmentAmount, currency),
        total: formatMoney(total, currency),
      }),
    ]);
    if (aboveOneTime !== null) rows.push([t('aboveOneTime'), formatMoney(aboveOneTime, currency)]);
  }
  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="subtitle1" component="h2" id="recurring-pricing-title">
          {t(data.membership ? 'membershipTitle' : 'planTitle')}
        </Typography>
        <Table size="small" aria-labelledby="recurring-pricing-title" sx={{ width: 'auto' }}>
          <TableBody>
            {rows.map(([label, value]) => (
              <TableRow key={label}>
                <TableCell component="th" scope="row">
                  {label}
                </TableCell>
                <TableCell sx={{ fontVariantNumeric: 'tabular-nums' }}>{value}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}
