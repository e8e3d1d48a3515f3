import { useRecordContext, usePermissions, useTranslate } from 'react-admin';
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
  const translate = useTranslate();
  if (!price) return <>{translate('resources.prices.titleLoading')}</>;
  const amount = formatMoney(price.unitAmount, price.currency);
  return (
    <>
      {price.nickname
        ? translate('resources.prices.titleNamed', { amount, nickname: price.nickname })
        : translate('resources.prices.title', { amount })}
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
          label="resources.prices.atProvider"
          reference="merchant-prices"
          target="priceId"
          empty="resources.prices.noneAtProvider"
        >
          {merchantPriceColumns(false)}
        </RelatedRows>
      ) : null}
    </RecordShow>
  );
}
