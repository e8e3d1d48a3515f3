import { Link as MuiLink, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { Link, useCreatePath, useTranslate } from 'react-admin';
import { ChartCard } from '../common/Figures';
import { formatMoney } from '../common/money';
import type { FinanceSummary } from './api';
import { ProductRevenueChart } from './lazyCharts';
import { AmountCells, AmountHeads } from './LedgerTable';
import { spanText } from './period';

/** The ledger per product, the most first, each linked to its product. */
export function ProductRevenueCard({ data }: { data: FinanceSummary }) {
  const translate = useTranslate();
  const createPath = useCreatePath();
  const { products } = data;
  const span = spanText(data);
  const title = translate('finance.products.title');
  const top = products[0];
  return (
    <ChartCard
      id="finance-products"
      title={title}
      caption={
        top
          ? translate('finance.products.caption', {
              smart_count: products.length,
              name: top.name,
              total: formatMoney(top.total),
            })
          : span
      }
      empty={products.length ? null : translate('finance.ledger.nothing')}
      height={260}
      chart={
        <ProductRevenueChart
          summary={data}
          title={title}
          description={translate('finance.products.description', { span })}
        />
      }
      table={
        products.length ? (
          <>
            <TableHead>
              <TableRow>
                <TableCell>{translate('finance.products.head')}</TableCell>
                <AmountHeads />
              </TableRow>
            </TableHead>
            <TableBody>
              {products.map((p) => (
                <TableRow key={p.productId}>
                  <TableCell component="th" scope="row">
                    <MuiLink component={Link} to={createPath({ resource: 'products', id: p.productId, type: 'show' })}>
                      {p.name}
                    </MuiLink>
                  </TableCell>
                  <AmountCells row={p} />
                </TableRow>
              ))}
            </TableBody>
          </>
        ) : null
      }
    />
  );
}
