import { Card, CardContent, Table, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { ProductRows } from '../common/Figures';
import { formatMoney } from '../common/money';
import type { FinanceSummary, SupportSummary } from './types';

/** A top product: with its net revenue in the finance view only. */
type TopProduct = SupportSummary['topProducts'][number] & Partial<FinanceSummary['topProducts'][number]>;

/**
 * The period's best-selling products, each linked to its page; for those who read finance, their net revenue in the
 * view's currency (`currency`, given with the revenue).
 */
export function TopProductsCard({ products, currency }: { products: TopProduct[]; currency?: string }) {
  const withRevenue = products.some((p) => p.revenue !== undefined);
  const translate = useTranslate();
  const title = translate('finance.dashboard.topProducts');
  return (
    <Card variant="outlined" component="section" aria-labelledby="top-products-title">
      <CardContent>
        <Typography variant="subtitle1" component="h3" id="top-products-title" gutterBottom>
          {title}
        </Typography>
        {products.length ? (
          <Table size="small" aria-label={title}>
            <TableHead>
              <TableRow>
                <TableCell>{translate('finance.dashboard.product')}</TableCell>
                <TableCell align="right">{translate('finance.dashboard.purchases')}</TableCell>
                {withRevenue && <TableCell align="right">{translate('finance.dashboard.netRevenue')}</TableCell>}
              </TableRow>
            </TableHead>
            <ProductRows
              products={products}
              cells={(p) => (
                <>
                  <TableCell align="right">{p.purchases}</TableCell>
                  {p.revenue !== undefined && <TableCell align="right">{formatMoney(p.revenue, currency)}</TableCell>}
                </>
              )}
            />
          </Table>
        ) : (
          <Typography variant="body2" color="text.secondary">
            {translate('finance.dashboard.noProducts')}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}
