import { Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatMoney } from '../../../api/src/shared/money';
import type { MonthFigures } from './looks';

const words = (name: string) => `resources.month-closes.figures.${name}`;
const ROWS = ['gross', 'tax', 'fees', 'sales', 'refunds', 'disputes', 'net', 'taxNet', 'payoutsPaid'] as const;

/** A month's figures, a column per currency: what is frozen when it closes (or was, once closed). */
export function FiguresTable({ figures }: { figures: readonly MonthFigures[] }) {
  const translate = useTranslate();
  if (!figures.length) return <p>{translate(words('none'))}</p>;
  return (
    <Table size="small" aria-label={translate(words('title'))} sx={{ width: 'auto' }}>
      <TableHead>
        <TableRow>
          <TableCell />
          {figures.map((f) => (
            <TableCell key={f.currency} align="right">
              {f.currency.toUpperCase()}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {ROWS.map((row) => (
          <TableRow key={row}>
            <TableCell component="th" scope="row">
              {translate(words(row))}
            </TableCell>
            {figures.map((f) => (
              <TableCell key={f.currency} align="right" sx={{ whiteSpace: 'nowrap' }}>
                {formatMoney(f[row], f.currency)}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
