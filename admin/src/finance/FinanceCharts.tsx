import { PieChart } from '@mui/x-charts/PieChart';
import { useTheme } from '@mui/material/styles';
import { useTranslate } from 'react-admin';
import { MoneyBarChart, type MoneySeries } from '../common/RevenueChart';
import { formatMoney } from '../common/money';
import { recipientLabel, type FinanceSummary, type LedgerAmounts, type LedgerPoint, type TaxSummary } from './api';
import { shortBucketLabel, type Bucket } from './period';
import { countryName, monthLabel } from './taxLabels';

// The Finance page's charts, in their own chunk: the chart library loads only when there are figures to draw.

interface ChartProps {
  summary: FinanceSummary;
  /** The chart's accessible name: the same text as the heading above it. */
  title: string;
  /** A one-sentence summary for screen readers. */
  description: string;
}

/** Net sales, refunds and disputes of each row, one stacked series each. */
function useLedgerSeries(rows: LedgerAmounts[]): MoneySeries[] {
  const { palette } = useTheme();
  const translate = useTranslate();
  const colors = { sales: palette.primary.main, refunds: palette.error.light, disputes: palette.warning.main };
  return (['sales', 'refunds', 'disputes'] as const).map((id) => ({
    id,
    label: translate(`finance.ledger.${id}`),
    data: rows.map((row) => row[id]),
    color: colors[id],
  }));
}

/** Net sales above the axis, refunds and disputes below it, one stacked bar per UTC day (or week, or month). */
export function RevenueOverTimeChart({
  points,
  bucket,
  currency,
  title,
  description,
}: Omit<ChartProps, 'summary'> & { points: LedgerPoint[]; bucket: Bucket; currency: string }) {
  return (
    <MoneyBarChart
      categories={points.map((p) => p.start)}
      categoryLabel={(start) => shortBucketLabel(start, bucket)}
      series={useLedgerSeries(points)}
      stacked
      height={300}
      title={title}
      description={description}
      currency={currency}
    />
  );
}

const shortName = (name: string) => (name.length > 24 ? `${name.slice(0, 23)}…` : name);

/** One horizontal bar per product: net sales to the right, refunds and disputes to the left. */
export function ProductRevenueChart({ summary, title, description }: ChartProps) {
  const products = summary.products;
  return (
    <MoneyBarChart
      categories={products.map((p) => p.name)}
      categoryLabel={shortName}
      series={useLedgerSeries(products)}
      stacked
      horizontal
      height={Math.max(180, products.length * 44 + 90)}
      title={title}
      description={description}
      currency={summary.currency}
    />
  );
}

/** Each recipient's share of the period's total, as a pie with a legend (recipients who end the period below zero are only in the table). */
export function RecipientShareChart({ summary, title, description }: ChartProps) {
  const translate = useTranslate();
  const slices = summary.recipients
    .filter((r) => r.total > 0)
    .map((r, index) => ({
      id: `${r.type}-${r.userId ?? 'platform'}-${index}`,
      value: r.total,
      label: recipientLabel(r, translate),
    }));
  return (
    <PieChart
      height={260}
      title={title}
      desc={description}
      series={[
        {
          data: slices,
          valueFormatter: (item: { value: number }) => formatMoney(item.value, summary.currency),
          innerRadius: 50,
          paddingAngle: 1,
          cornerRadius: 3,
          highlightScope: { fade: 'global', highlight: 'item' },
        },
      ]}
      slotProps={{ legend: { direction: 'vertical', position: { vertical: 'middle', horizontal: 'end' } } }}
    />
  );
}

/** Countries drawn as their own series; the rest are summed as one. */
const TAX_COUNTRIES_DRAWN = 6;
/** One colour per country, told apart at a glance (Tableau's ten, its first six), and a grey for the rest. */
const COUNTRY_COLORS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#b07aa1', '#9c755f', '#9e9e9e'];

/** Net tax (collected less given back) per month, one stacked series per country, the largest first. */
export function TaxOverTimeChart({
  summary,
  title,
  description,
}: {
  summary: TaxSummary;
  title: string;
  description: string;
}) {
  const translate = useTranslate();
  const drawn = summary.countries.slice(0, TAX_COUNTRIES_DRAWN).map((c) => c.country);
  const netOf = (month: string, inCountry: (country: string) => boolean) =>
    summary.byMonthAndCountry
      .filter((row) => row.month === month && inCountry(row.country))
      .reduce((sum, row) => sum + row.net, 0);
  const series: MoneySeries[] = drawn.map((country, index) => ({
    id: country,
    label: countryName(country),
    data: summary.months.map((m) => netOf(m.month, (c) => c === country)),
    color: COUNTRY_COLORS[index]!,
  }));
  if (summary.countries.length > TAX_COUNTRIES_DRAWN)
    series.push({
      id: 'other',
      label: translate('finance.tax.otherCountries'),
      data: summary.months.map((m) => netOf(m.month, (c) => !drawn.includes(c))),
      color: COUNTRY_COLORS[TAX_COUNTRIES_DRAWN]!,
    });
  return (
    <MoneyBarChart
      categories={summary.months.map((m) => m.month)}
      categoryLabel={monthLabel}
      series={series}
      stacked
      height={300}
      title={title}
      description={description}
      currency={summary.currency}
    />
  );
}
