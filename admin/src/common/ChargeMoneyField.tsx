import { useGetManyAggregate, useRecordContext } from 'react-admin';
import { MoneyField } from './MoneyField';

interface ChargeMoneyFieldProps {
  source: string;
  /** Read by Datagrid and the show layouts. */
  label?: string;
  sortable?: boolean;
  sortBy?: string;
  textAlign?: 'left' | 'right';
}

/**
 * An amount in cents of a record that belongs to a charge (a refund, a dispute) and has no currency of its own:
 * shown in the charge's currency. The charges are fetched in one batch with the rows' other references.
 */
export function ChargeMoneyField({ source }: ChargeMoneyFieldProps) {
  const record = useRecordContext<{ id: string; merchantChargeId?: string | null }>();
  const chargeId = record?.merchantChargeId ?? null;
  const { data, isPending } = useGetManyAggregate<{ id: string; currency: string }>(
    'merchant-charges',
    { ids: chargeId ? [chargeId] : [] },
    { enabled: Boolean(chargeId) },
  );
  const currency = data?.find((charge) => charge?.id === chargeId)?.currency;
  if (chargeId && isPending) return null; // never a flash of the wrong currency
  return <MoneyField source={source} currency={currency ?? 'usd'} />;
}
