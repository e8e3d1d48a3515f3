import { LineChart } from '@mui/x-charts/LineChart';
import { useTheme } from '@mui/material/styles';
import { useTranslate } from 'react-admin';
import { formatMoney } from '../common/money';
import type { SubscriptionFigures } from './SubscriptionFiguresCard';

// Recurring revenue's charts, in their own chunk with the chart library.

interface Props {
  figures: SubscriptionFigures;
  title: string;
  description: string;
}

/** Active subscribers and trials at each day's end. */
export function SubscribersChart({ figures, title, description }: Props) {
  const translate = useTranslate();
  const { palette } = useTheme();
  return (
    <LineChart
      height={260}
      title={title}
      aria-label={title}
      aria-description={description}
      xAxis={[{ scaleType: 'point', data: figures.days.map((d) => d.day.slice(5)) }]}
      series={[
        {
          id: 'active',
          label: translate('resources.subscriptions.figures.active'),
          data: figures.days.map((d) => d.active),
          color: palette.primary.main,
        },
        {
          id: 'trials',
          label: translate('resources.subscriptions.figures.trials'),
          data: figures.days.map((d) => d.trials),
          color: palette.info.main,
        },
      ]}
    />
  );
}

/** MRR in one currency at each day's end. */
export function MrrChart({ figures, currency, title, description }: Props & { currency: string }) {
  const { palette } = useTheme();
  return (
    <LineChart
      height={260}
      title={title}
      aria-label={title}
      aria-description={description}
      xAxis={[{ scaleType: 'point', data: figures.days.map((d) => d.day.slice(5)) }]}
      yAxis={[{ valueFormatter: (v: number) => formatMoney(v, currency) }]}
      series={[
        {
          id: 'mrr',
          label: `MRR (${currency.toUpperCase()})`,
          data: figures.days.map((d) => d.mrr[currency] ?? 0),
          valueFormatter: (v) => (v === null ? '' : formatMoney(v, currency)),
          color: palette.success.main,
        },
      ]}
    />
  );
}
