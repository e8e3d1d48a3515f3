import SellOutlinedIcon from '@mui/icons-material/SellOutlined';
import { SelectInput } from 'react-admin';
import { date, money, ref, status, text } from '../common/columns';
import { choiceFilter, referenceFilter, searchFilter } from '../common/filters';
import { dateRangeFilters, moneyRangeFilters } from '../common/inputs';
import { CURRENCY_CHOICES } from '../common/money';
import { RecordList } from '../common/RecordList';
import { choicesOf } from '../common/chipLooks';
import { PRICE_STATUS_LOOKS } from './choices';

const filters = [
  searchFilter('resources.prices.search'),
  referenceFilter('productId', 'products', { alwaysOn: true }),
  choiceFilter('status', choicesOf(PRICE_STATUS_LOOKS)),
  <SelectInput key="currency" source="currency" choices={CURRENCY_CHOICES} />,
  ...moneyRangeFilters('unitAmount', 'Amount'),
  ...dateRangeFilters('createdAt', 'Created'),
];

/** A product's prices, below the product (`withProduct`: in the list of every price). */
export const priceColumns = (withProduct: boolean) => [
  ...(withProduct ? [ref('productId', 'products')] : []),
  money('unitAmount'),
  text('currency'),
  text('billingInterval', { emptyText: '—' }),
  text('nickname', { emptyText: '—' }),
  status(PRICE_STATUS_LOOKS),
  date('createdAt'),
];

export function PriceList() {
  return (
    <RecordList filters={filters} icon={SellOutlinedIcon}>
      {priceColumns(true)}
    </RecordList>
  );
}
