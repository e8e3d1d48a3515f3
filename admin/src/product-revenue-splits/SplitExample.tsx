import { Typography } from '@mui/material';
import { useGetList, useGetManyAggregate, useListContext, useRecordContext, useTranslate } from 'react-admin';
import { saleLines, shareOf } from '../../../api/src/shared/split-ledger';
import { formatMoney, formatPercent } from '../common/money';
import type { Price } from '../prices/choices';
import type { RevenueSplit } from './choices';

/**
 * The example sale the tab works through, in the product's currency: 10,000 of its minor units with a 320 fee ($100.00
 * with a card fee of 2.9 % + 30 ¢; ¥10,000 with ¥320).
 */
const EXAMPLE_GROSS = 10_000;
const EXAMPLE_FEE = 320;

/** Shares are fractions with at most four decimals: sums are rounded there, so 0.1 + 0.2 is 0.3. */
const fourDecimals = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * A product's splits summed, and one sale worked through by the ledger's own arithmetic (`saleLines`), so what the
 * tab says is what the ledger does: the platform's share off the gross, the fee off the rest, owners and contributors
 * sharing what remains in proportion, the platform keeping everything when nobody else is named.
 */
export function SplitExample() {
  const { data, total } = useListContext<RevenueSplit>();
  // The product's currency is its current price's.
  const product = useRecordContext<{ id: string }>();
  const { data: prices, isPending: pricePending } = useGetList<Price>(
    'prices',
    {
      filter: { productId: product?.id, status: 'active' },
      pagination: { page: 1, perPage: 1 },
      sort: { field: 'createdAt', order: 'DESC' },
    },
    { enabled: Boolean(product?.id) },
  );
  const money = (amount: number) => formatMoney(amount, prices?.[0]?.currency);
  const translate = useTranslate();
  const userIds = [...new Set((data ?? []).map((s) => s.userId).filter((id): id is string => Boolean(id)))];
  const { data: users } = useGetManyAggregate<{ id: string; name: string | null; email: string }>('users', {
    ids: userIds,
  });
  if (!data?.length || (product?.id && pricePending)) return null; // never a flash of the wrong currency
  const sum = fourDecimals(data.reduce((s, split) => s + Number(split.percent), 0));
  const partial = total !== undefined && total > data.length;
  const nameOf = (userId: string | null) => {
    const user = users?.find((u) => u.id === userId);
    return user ? user.name || user.email : translate('resources.product-revenue-splits.someone');
  };
  const lines = saleLines(
    EXAMPLE_GROSS,
    EXAMPLE_FEE,
    data.map((s) => ({ type: s.type, userId: s.userId, share: shareOf(s.percent) })),
  );
  const parts = lines.map((line) =>
    line.type === 'platform'
      ? `${translate('resources.product-revenue-splits.platform')} ${money(line.amount)}`
      : `${nameOf(line.userId)} (${translate(`resources.product-revenue-splits.types.${line.type}`)}) ${money(line.amount)}`,
  );
  return (
    <Typography component="div" variant="body2" sx={{ p: 2 }} color="text.secondary" role="status">
      <div>
        {translate(
          partial ? 'resources.product-revenue-splits.totalsOfPage' : 'resources.product-revenue-splits.totals',
          { sum: formatPercent(sum) },
        )}
      </div>
      <div>
        {translate('resources.product-revenue-splits.example', {
          gross: money(EXAMPLE_GROSS),
          fee: money(EXAMPLE_FEE),
          net: money(EXAMPLE_GROSS - EXAMPLE_FEE),
        })}{' '}
        {parts.join(' · ')}
      </div>
    </Typography>
  );
}
