import { BarChart } from '@mui/x-charts/BarChart';
import { useTheme } from '@mui/material/styles';
import { useTranslate } from 'react-admin';
import type { DashboardDay } from '@contract/admin/schemas/dashboard';
import type { Wire } from '@contract/shared/wire';
import { formatMoney } from './money';

// The console's bar charts of money (loaded lazily: the chart library is not in the console's first bundle).

export interface MoneySeries {
  id: string;
  label: string;
  /** Cents per category. */
  data: number[];
  color: string;
}

interface MoneyBarChartProps {
  /** One bar (or stack) per category: a day, a week, a product. */
  categories: string[];
  categoryLabel(category: string): string;
  series: MoneySeries[];
  /** Sales above the axis and refunds below it share one bar. */
  stacked?: boolean;
  /** Bars along the page (one per product) rather than up it (one per day). */
  horizontal?: boolean;
  height: number;
  /** The chart's accessible name: the same text as the heading above it. */
  title: string;
  /** A one-sentence summary for screen readers. */
  description: string;
  /** The amounts' currency (usd when not said): "¥4,000" rather than "$40.00" for 4000 in jpy. */
  currency?: string;
}

export function MoneyBarChart(props: MoneyBarChartProps) {
  const { categories, categoryLabel, stacked, horizontal, height, title, description, currency } = props;
  const money = (amount: number | null) => (amount === null ? '' : formatMoney(amount, currency));
  /** Axis ticks without the cents when they are round: "$1,200" rather than "$1,200.00". */
  const tick = (amount: number) => formatMoney(amount, currency).replace(/\.00$/, '');
  const categoryAxis = { scaleType: 'band' as const, data: categories, valueFormatter: categoryLabel };
  return (
    <BarChart
      height={height}
      layout={horizontal ? 'horizontal' : 'vertical'}
      title={title}
      desc={description}
      xAxis={horizontal ? [{ valueFormatter: tick }] : [{ ...categoryAxis, tickLabelStyle: { fontSize: 11 } }]}
      yAxis={horizontal ? [{ ...categoryAxis, width: 170 }] : [{ valueFormatter: tick, width: 80 }]}
      series={props.series.map((s) => ({ ...s, valueFormatter: money, ...(stacked ? { stack: 'ledger' } : {}) }))}
      grid={horizontal ? { vertical: true } : { horizontal: true }}
      margin={{ left: 8, right: horizontal ? 16 : 8, top: 16, bottom: 8 }}
    />
  );
}

const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

interface RevenueChartProps {
  days: Wire<DashboardDay>[];
  currency: string;
  title: string;
  description: string;
}

/** The dashboard's revenue (charged less its tax) and refunds per day, as bars side by side. */
export default function RevenueChart({ days, currency, title, description }: RevenueChartProps) {
  const { palette } = useTheme();
  const translate = useTranslate();
  return (
    <MoneyBarChart
      categories={days.map((d) => d.day)}
      categoryLabel={dayLabel}
      series={[
        {
          id: 'revenue',
          label: translate('finance.dashboard.revenue'),
          data: days.map((d) => d.gross - d.tax),
          color: palette.primary.main,
        },
        {
          id: 'refunded',
          label: translate('finance.dashboard.refunded'),
          data: days.map((d) => d.refunded),
          color: palette.error.light,
        },
      ]}
      height={300}
      title={title}
      description={description}
      currency={currency}
    />
  );
}
