import { BarChart } from '@mui/x-charts/BarChart';
import { PieChart } from '@mui/x-charts/PieChart';
import { useTheme } from '@mui/material/styles';
import { formatMoney } from '../common/money';
import { recipientLabel, type FinanceSummary, type LedgerAmounts } from './api';
import { bucketLabel, type Bucket } from './period';

// The Finance page's charts, in their own chunk: the chart library loads only when there are figures to draw.

interface ChartProps {
  summary: FinanceSummary;
  /** The chart's accessible name: the same text as the heading above it. */
  title: string;
  /** A one-sentence summary for screen readers. */
  description: string;
}

const money = (cents: number | null) => (cents === null ? '' : formatMoney(cents));
/** Axis ticks without the cents when they are round: "$1,200" rather than "$1,200.00". */
const tick = (cents: number) => formatMoney(cents).replace(/\.00$/, '');

function useLedgerColors() {
  const { palette } = useTheme();
  return { sales: palette.primary.main, refunds: palette.error.light, disputes: palette.warning.main };
}

/** Net sales above the axis, refunds and disputes below it, one stacked bar per UTC day (or week, or month). */
export function RevenueOverTimeChart({
  points,
  bucket,
  title,
  description,
}: Omit<ChartProps, 'summary'> & { points: (LedgerAmounts & { start: string })[]; bucket: Bucket }) {
  const colors = useLedgerColors();
  return (
    <BarChart
      height={300}
      title={title}
      desc={description}
      xAxis={[
        {
          scaleType: 'band',
          data: points.map((d) => d.start),
          valueFormatter: (start: string) => bucketLabel(start, bucket, true),
          tickLabelStyle: { fontSize: 11 },
        },
      ]}
      yAxis={[{ valueFormatter: tick, width: 80 }]}
      series={[
        {
          id: 'sales',
          label: 'Net sales',
          data: points.map((d) => d.sales),
          stack: 'ledger',
          valueFormatter: money,
          color: colors.sales,
        },
        {
          id: 'refunds',
          label: 'Refunds',
          data: points.map((d) => d.refunds),
          stack: 'ledger',
          valueFormatter: money,
          color: colors.refunds,
        },
        {
          id: 'disputes',
          label: 'Disputes',
          data: points.map((d) => d.disputes),
          stack: 'ledger',
          valueFormatter: money,
          color: colors.disputes,
        },
      ]}
      grid={{ horizontal: true }}
      margin={{ left: 8, right: 8, top: 16, bottom: 8 }}
    />
  );
}

const shortName = (name: string) => (name.length > 24 ? `${name.slice(0, 23)}…` : name);

/** One horizontal bar per product: net sales to the right, refunds and disputes to the left. */
export function ProductRevenueChart({ summary, title, description }: ChartProps) {
  const colors = useLedgerColors();
  const products = summary.products;
  return (
    <BarChart
      height={Math.max(180, products.length * 44 + 90)}
      layout="horizontal"
      title={title}
      desc={description}
      yAxis={[{ scaleType: 'band', data: products.map((p) => p.name), valueFormatter: shortName, width: 170 }]}
      xAxis={[{ valueFormatter: tick }]}
      series={[
        {
          id: 'sales',
          label: 'Net sales',
          data: products.map((p) => p.sales),
          stack: 'ledger',
          valueFormatter: money,
          color: colors.sales,
        },
        {
          id: 'refunds',
          label: 'Refunds',
          data: products.map((p) => p.refunds),
          stack: 'ledger',
          valueFormatter: money,
          color: colors.refunds,
        },
        {
          id: 'disputes',
          label: 'Disputes',
          data: products.map((p) => p.disputes),
          stack: 'ledger',
          valueFormatter: money,
          color: colors.disputes,
        },
      ]}
      grid={{ vertical: true }}
      margin={{ left: 8, right: 16, top: 16, bottom: 8 }}
    />
  );
}

/** Each recipient's share of the period's total, as a pie with a legend (recipients who end the period below zero are only in the table). */
export function RecipientShareChart({ summary, title, description }: ChartProps) {
  const slices = summary.recipients
    .filter((r) => r.total > 0)
    .map((r, index) => ({
      id: `${r.type}-${r.userId ?? 'platform'}-${index}`,
      value: r.total,
      label: recipientLabel(r),
    }));
  return (
    <PieChart
      height={260}
      title={title}
      desc={description}
      series={[
        {
          data: slices,
          valueFormatter: (item: { value: number }) => formatMoney(item.value),
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
