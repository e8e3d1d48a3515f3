import { Card, CardContent, Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import type { RecurringPricing } from '@contract/pricing-simulator/recurring';
import { ratePercent } from '../../../api/src/shared/tax-text';
import { formatMoney } from '../common/money';
import type { ConsoleDataProvider } from '../dataProvider';

/** A tax rate said as the buyer pays it: added on top of each charge, or inside it. */
function taxText(
  t: (key: string, args?: Record<string, unknown>) => string,
  tax: { name: string; rate: number; inclusive: boolean },
): string {
  return t(tax.inclusive ? 'taxInside' : 'taxOnTop', { name: tax.name, rate: ratePercent(tax.rate) });
}

/** The simulator's query as the recurring prices take it: the product, customer, country, regional price, coupon. */
const RECURRING_TERMS = ['productId', 'userId', 'country', 'ppp', 'coupon'];

/**
 * How the simulated product is paid over time, beside its one-time price: a membership's price each interval with its
 * trial (and a month's worth), or a payment plan's N instalments and what they come to; each priced for the simulated
 * buyer (their coupon for its periods, the regional price, tax) as subscribing or buying the plan would.
 */
export function RecurringPricingCard({ query }: { query: Record<string, string> }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const terms = Object.fromEntries(Object.entries(query).filter(([key, v]) => RECURRING_TERMS.includes(key) && v));
  const { data } = useQuery<RecurringPricing>({
    queryKey: ['pricing-recurring', terms],
    queryFn: ({ signal }) => dataProvider.recurringPricing(terms, { signal }).then((answer) => answer.data),
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
    for (const p of data.membership.prices) {
      const { amount, coupon, pppPercent, tax } = p.priced;
      const parts = [t('pricedPeriod', { amount: formatMoney(amount, p.currency) })];
      if (pppPercent) parts.push(t('regional', { percent: pppPercent }));
      if (coupon)
        parts.push(
          t('pricedCoupon', {
            amount: formatMoney(coupon.amount, p.currency),
            code: coupon.code,
            percent: coupon.percent,
            periods: coupon.periods === null ? t('everyPeriod') : t('periods', { smart_count: coupon.periods }),
          }),
        );
      if (tax) parts.push(taxText(t, tax));
      rows.push([t('forBuyer', { interval: t(p.interval === 'year' ? 'yearly' : 'monthly') }), parts.join('; ')]);
    }
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
    const { quote } = data.plan;
    const money = (amount: number) => formatMoney(amount, quote.currency);
    quote.payments.forEach((p, i) =>
      rows.push([
        t('payment', { number: i + 1 }),
        t('paymentFigures', {
          charged: money(p.charged),
          price: money(p.amount),
          discount: money(p.discount),
          tax: money(p.tax),
        }),
      ]),
    );
    const notes = [
      quote.pppPercent ? t('regional', { percent: quote.pppPercent }) : null,
      quote.tax ? taxText(t, quote.tax) : null,
    ].filter(Boolean);
    rows.push([t('planTotal'), [money(quote.total), ...notes].join('; ')]);
  }
  if (data.couponProblem) rows.push([t('couponRefused', { problem: data.couponProblem }), '—']);
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
