import { TableBody, TableCell, TableFooter, TableHead, TableRow } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { problemOf } from '../common/ActionDialog';
import { ChartCard, FiguresFailed } from '../common/Figures';
import { formatMoney } from '../common/money';
import { retryUnanswered, type ConsoleDataProvider } from '../dataProvider';
import { taxPeriod, type TaxSummary } from './api';
import { TaxOverTimeChart } from './lazyCharts';
import { isComplete, spanText, type Period } from './period';
import { countryName } from './taxLabels';

const AMOUNTS = ['collected', 'refunded', 'net'] as const;

/**
 * The tax of the period's invoices and credit notes (GET /api/admin/finance/tax-summary): net tax per month, stacked
 * by country, and per country as a table; in the currency chosen on the page, else the one with the most tax.
 */
export function TaxCard({ period, currency }: { period: Period; currency: string | undefined }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const asked = taxPeriod(period);
  const query = useQuery<TaxSummary>({
    queryKey: ['finance', 'getTaxSummary', asked, currency],
    queryFn: ({ signal }) => dataProvider.getTaxSummary({ ...asked, currency }, { signal }).then(({ data }) => data),
    enabled: isComplete(period),
    placeholderData: keepPreviousData,
    retry: retryUnanswered,
  });
  const title = translate('finance.tax.title');
  if (query.isError) {
    // Dates refused are said once, by the ledger's figures above and the date inputs.
    const { errors } = problemOf(query.error, '');
    if (errors.from || errors.to) return null;
    return <FiguresFailed error={query.error} onRetry={() => void query.refetch()} />;
  }
  const data = query.data;
  if (!data) return null;
  const money = (amount: number) => formatMoney(amount, data.currency);
  const span = spanText(period);
  const empty = data.countries.length ? null : translate('finance.tax.nothing');
  return (
    <ChartCard
      id="finance-tax"
      title={title}
      caption={translate('finance.tax.caption', {
        span,
        collected: money(data.totals.collected),
        refunded: money(data.totals.refunded),
        net: money(data.totals.net),
        currency: data.currency.toUpperCase(),
      })}
      empty={empty}
      height={300}
      chart={
        <TaxOverTimeChart summary={data} title={title} description={translate('finance.tax.description', { span })} />
      }
      table={
        empty ? null : (
          <>
            <TableHead>
              <TableRow>
                <TableCell>{translate('finance.tax.country')}</TableCell>
                {AMOUNTS.map((amount) => (
                  <TableCell key={amount} align="right">
                    {translate(`finance.tax.${amount}`)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {data.countries.map((row) => (
                <TableRow key={row.country}>
                  <TableCell component="th" scope="row">
                    {countryName(row.country)}
                  </TableCell>
                  {AMOUNTS.map((amount) => (
                    <TableCell key={amount} align="right">
                      {money(row[amount])}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
            <TableFooter>
              <TableRow>
                <TableCell component="th" scope="row">
                  {translate('finance.tax.total')}
                </TableCell>
                {AMOUNTS.map((amount) => (
                  <TableCell key={amount} align="right">
                    {money(data.totals[amount])}
                  </TableCell>
                ))}
              </TableRow>
            </TableFooter>
          </>
        )
      }
    />
  );
}
