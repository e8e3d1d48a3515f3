import { BarChart } from '@mui/x-charts/BarChart';
import { useTheme } from '@mui/material/styles';
import { MoneyBarChart } from '../common/RevenueChart';

// The money-back charts, in their own chunk: the chart library loads only when there are figures to draw.

const shortName = (name: string) => (name.length > 24 ? `${name.slice(0, 23)}…` : name);

/** One horizontal bar per reason or product: the money refunded for it in the period, in the report's currency. */
export function RefundAmountChart({
  rows,
  currency,
  seriesLabel,
  title,
  description,
}: {
  rows: { name: string; amountCents: number }[];
  currency: string;
  seriesLabel: string;
  title: string;
  description: string;
}) {
  const { palette } = useTheme();
  return (
    <MoneyBarChart
      categories={rows.map((r) => r.name)}
      categoryLabel={shortName}
      series={[
        { id: 'refunded', label: seriesLabel, data: rows.map((r) => r.amountCents), color: palette.error.light },
      ]}
      horizontal
      height={Math.max(160, rows.length * 40 + 80)}
      title={title}
      description={description}
      currency={currency}
    />
  );
}

/** Disputes opened per week, stacked by where they stand now (open, won, lost). */
export function DisputeWeeksChart({
  weeks,
  labels,
  weekLabel,
  title,
  description,
}: {
  weeks: { week: string; open: number; won: number; lost: number }[];
  labels: Record<'open' | 'won' | 'lost', string>;
  weekLabel(week: string): string;
  title: string;
  description: string;
}) {
  const { palette } = useTheme();
  const colors = { open: palette.warning.main, won: palette.success.main, lost: palette.error.main };
  return (
    <BarChart
      height={200}
      title={title}
      desc={description}
      xAxis={[{ scaleType: 'band', data: weeks.map((w) => w.week), valueFormatter: weekLabel }]}
      yAxis={[{ tickMinStep: 1, width: 40 }]}
      series={(['open', 'won', 'lost'] as const).map((id) => ({
        id,
        label: labels[id],
        data: weeks.map((w) => w[id]),
        color: colors[id],
        stack: 'disputes',
      }))}
      grid={{ horizontal: true }}
      margin={{ left: 8, right: 8, top: 16, bottom: 8 }}
    />
  );
}
