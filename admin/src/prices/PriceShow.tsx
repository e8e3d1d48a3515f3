import { useRecordContext, usePermissions } from 'react-admin';
import { text } from '../common/columns';
import { formatMoney } from '../common/money';
import { RecordShow } from '../common/RecordShow';
import { RelatedRows } from '../common/Rows';
import { merchantPriceColumns } from '../merchant-records/catalog';
import { canRead } from '../permissions';
import type { Price } from './choices';
import { priceColumns } from './PriceList';

function PriceTitle() {
  const price = useRecordContext<Price>();
  return (
    <>
      {price
        ? `Price ${formatMoney(price.unitAmount, price.currency)}${price.nickname ? ` (${price.nickname})` : ''}`
        : 'Price'}
    </>
  );
}

export function PriceShow() {
  const { permissions } = usePermissions();
  return (
    <RecordShow title={<PriceTitle />}>
      {priceColumns(true)}
      {text('id')}
      {canRead(permissions, 'merchant-prices') ? (
        <RelatedRows
          label="At the payment provider"
          reference="merchant-prices"
          target="priceId"
          empty="Not yet created at the payment provider."
        >
          {merchantPriceColumns(false)}
        </RelatedRows>
      ) : null}
    </RecordShow>
  );
}
