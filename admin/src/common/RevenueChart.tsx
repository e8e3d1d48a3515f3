import { BarChart } from '@mui/x-charts/BarChart';
import { useTheme } from '@mui/material/styles';
import type { DashboardDay } from './api';
import { formatMoney } from './money';

interface RevenueChartProps {
  days: DashboardDay[];
  /** The chart's accessible name; the same text as the heading above it. */
  title: string;
  /** A one-sentence summary for screen readers. */
  description: string;
  currency?: string;
}

const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** Gross and refunded revenue per day as bars (loaded lazily: the chart library is not in the console's first bundle). */
export default function RevenueChart({ days, title, description, currency = 'usd' }: RevenueChartProps) {
  const theme = useTheme();
  const money = (cents: number | null) => (cents === null ? '' : formatMoney(cents, currency));
  return (
    <BarChart
      height={300}
      title={title}
      desc={description}
      xAxis={[
        { scaleType: 'band', data: days.map((d) => d.day), valueFormatter: dayLabel, tickLabelStyle: { fontSize: 11 } },
      ]}
      yAxis={[{ valueFormatter: (cents: number) => formatMoney(cents, currency).replace(/\.00$/, ''), width: 72 }]}
      series={[
        {
          id: 'gross',
          label: 'Gross',
          data: days.map((d) => d.gross),
          valueFormatter: money,
          color: theme.palette.primary.main,
        },
        {
          id: 'refunded',
          label: 'Refunded',
          data: days.map((d) => d.refunded),
          valueFormatter: money,
          color: theme.palette.error.light,
        },
      ]}
      grid={{ horizontal: true }}
      margin={{ left: 8, right: 8, top: 16, bottom: 8 }}
    />
  );
}
