import { TableCell, TableHead, TableRow } from '@mui/material';
import { useTranslate } from 'react-admin';
import { ChartCard, ProductRows } from '../common/Figures';
import { formatMoney } from '../common/money';
import type { FinanceSummary } from './api';
import { ProductRevenueChart } from './lazyCharts';
import { AmountCells, AmountHeads } from './LedgerTable';
import { spanText } from './period';

/** The ledger per product, the most first, each linked to its product. */
export function ProductRevenueCard({ data }: { data: FinanceSummary }) {
  const translate = useTranslate();
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
              total: formatMoney(top.total, data.currency),
            })
          : span
      }
      empty={products.length ? null : translate('finance.ledger.nothing')}
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
            <ProductRows products={products} cells={(p) => <AmountCells row={p} currency={data.currency} />} />
          </>
        ) : null
      }
    />
  );
}
