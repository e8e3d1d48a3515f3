import { Alert, Box, Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatMoney } from '../common/money';
import { ReleasedLater } from './ReleasedLater';
import type { SimulationAnswer } from './types';

/** Basis points as a percentage: 2500 → "25%". */
const percent = (bp: number) => `${bp / 100}%`;

/**
 * The quote line by line (list price, the one discount applied, the upgrade credit, the total), why every other
 * discount did not apply, and what the purchase would grant.
 */
export function QuoteBreakdown({ simulation }: { simulation: SimulationAnswer }) {
  const translate = useTranslate();
  const { quote: preview, grants, customer } = simulation;
  const { quote } = preview;
  const money = (cents: number) => formatMoney(cents, preview.currency);
  const lines: [string, string][] = [
    [
      translate('console.pricing.lines.list', {
        quantity: quote.quantity,
        unit: money(quote.unitAmount),
      }),
      money(quote.fullPrice),
    ],
  ];
  if (quote.discount)
    lines.push([
      translate('console.pricing.lines.discount', {
        kind: translate(`console.pricing.kinds.${quote.discount.kind}`),
        percent: percent(quote.discount.bp),
      }),
      `−${money(quote.discount.amount)}`,
    ]);
  if (quote.credit > 0) lines.push([translate('console.pricing.lines.credit'), `−${money(quote.credit)}`]);
  const title = translate('console.pricing.result', { product: preview.product.name });
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        {customer
          ? translate('console.pricing.forCustomer', { email: customer.email })
          : translate('console.pricing.forGuest')}
        {preview.country ? ` · ${translate('console.pricing.fromCountry', { country: preview.country })}` : ''}
      </Typography>
      {preview.coupon?.problem && (
        <Alert severity="warning" sx={{ my: 1 }}>
          {translate('console.pricing.couponProblem', { code: preview.coupon.code, message: preview.coupon.message })}
        </Alert>
      )}
      <Table size="small" aria-label={translate('console.pricing.linesTitle')} sx={{ maxWidth: 520 }}>
        <TableBody>
          {lines.map(([label, amount]) => (
            <TableRow key={label}>
              <TableCell component="th" scope="row">
                {label}
              </TableCell>
              <TableCell align="right">{amount}</TableCell>
            </TableRow>
          ))}
          <TableRow>
            <TableCell component="th" scope="row" sx={{ fontWeight: 700 }}>
              {quote.free ? translate('console.pricing.lines.free') : translate('console.pricing.lines.total')}
            </TableCell>
            <TableCell align="right" sx={{ fontWeight: 700 }} data-testid="simulated-total">
              {money(quote.finalPrice)}
            </TableCell>
          </TableRow>
        </TableBody>
      </Table>
      {quote.notApplied.length > 0 && (
        <>
          <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
            {translate('console.pricing.notAppliedTitle')}
          </Typography>
          <Box component="ul" aria-label={translate('console.pricing.notAppliedTitle')} sx={{ pl: 3, my: 1 }}>
            {quote.notApplied.map((n) => (
              <Typography component="li" variant="body2" key={`${n.kind}-${n.reason}`}>
                {translate('console.pricing.notApplied', {
                  kind: translate(`console.pricing.kinds.${n.kind}`),
                  reason: translate(`console.pricing.reasons.${n.reason}`),
                })}
              </Typography>
            ))}
          </Box>
        </>
      )}
      <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
        {translate('console.pricing.grantsTitle')}
      </Typography>
      <Typography variant="body2">
        {translate(`console.pricing.access.${grants.access}`, {
          country: grants.restrictedTo ?? '',
          smart_count: grants.seats ?? 0,
        })}{' '}
        {grants.courses.length
          ? translate('console.pricing.courses', { titles: grants.courses.map((c) => c.title).join(', ') })
          : translate('console.pricing.noCourses')}
        {grants.spends ? ` ${translate('console.pricing.spends')}` : ''}
        {grants.free ? ` ${translate('console.pricing.redeemed')}` : ''}
      </Typography>
      <ReleasedLater releases={simulation.releases} />
    </Box>
  );
}
