import { Typography } from '@mui/material';
import { useGetList, useListContext, useRecordContext } from 'react-admin';
import { formatMoney } from '../common/money';
import type { Price } from '../prices/choices';

/**
 * The product's current (active) price, in a list of products. Every row asks for the same page of prices
 * (all the listed products' active prices), so the list makes one request, not one per row.
 */
export function CurrentPriceField(_props: { label?: string; sortable?: boolean }) {
  const record = useRecordContext();
  const { data: products } = useListContext();
  const ids = (products ?? []).map((p) => p.id as string).sort();
  const { data: prices, isPending } = useGetList<Price>(
    'prices',
    {
      filter: { productId: ids, status: 'active' },
      pagination: { page: 1, perPage: Math.max(ids.length, 1) },
      sort: { field: 'createdAt', order: 'DESC' },
    },
    { enabled: ids.length > 0 },
  );
  if (!record) return null;
  if (isPending) return null;
  const price = prices?.find((p) => p.productId === record.id);
  return price ? (
    <Typography component="span" variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
      {formatMoney(price.unitAmount, price.currency)}
    </Typography>
  ) : (
    <Typography component="span" variant="body2" color="text.secondary">
      No price
    </Typography>
  );
}
