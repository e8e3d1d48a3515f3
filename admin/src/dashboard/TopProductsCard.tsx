import {
  Card,
  CardContent,
  Link as MuiLink,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Link, useCreatePath, useTranslate } from 'react-admin';
import { formatMoney } from '../common/money';
import type { DashboardSummary } from './types';

/** The period's best-selling products, each linked to its page. */
export function TopProductsCard({ products }: { products: DashboardSummary['topProducts'] }) {
  const translate = useTranslate();
  const createPath = useCreatePath();
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
                <TableCell align="right">{translate('finance.dashboard.revenue')}</TableCell>
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
                  <TableCell align="right">{p.purchases}</TableCell>
                  <TableCell align="right">{formatMoney(p.revenue)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
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
