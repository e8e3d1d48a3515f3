import { Typography } from '@mui/material';
import { useRecordContext, type RaRecord } from 'react-admin';
import { formatMoney, formatPercent } from './money';

interface MoneyFieldProps {
  source: string;
  /** The record field holding the currency; `currency` wins when given. */
  currencySource?: string;
  currency?: string;
  /** Read by Datagrid and the show layouts. */
  label?: string;
  sortable?: boolean;
  sortBy?: string;
  textAlign?: 'left' | 'right';
  emptyText?: string;
}

function valueAt(record: RaRecord, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined),
      record,
    );
}

/** An amount in cents shown as currency: 4900 → "$49.00". */
export function MoneyField({ source, currencySource = 'currency', currency, emptyText = '—' }: MoneyFieldProps) {
  const record = useRecordContext();
  if (!record) return null;
  const cents = valueAt(record, source);
  const code = currency ?? (valueAt(record, currencySource) as string | undefined) ?? 'usd';
  return (
    <Typography component="span" variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
      {typeof cents === 'number' ? formatMoney(cents, code) : emptyText}
    </Typography>
  );
}

interface PercentFieldProps {
  source: string;
  label?: string;
  sortable?: boolean;
  sortBy?: string;
  textAlign?: 'left' | 'right';
}

/** A fraction shown as a percentage: 0.25 → "25%". */
export function PercentField({ source }: PercentFieldProps) {
  const record = useRecordContext();
  if (!record) return null;
  return (
    <Typography component="span" variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
      {formatPercent(valueAt(record, source) as number | null)}
    </Typography>
  );
}
