import CalendarMonthOutlinedIcon from '@mui/icons-material/CalendarMonthOutlined';
import { SelectInput } from 'react-admin';
import { date, money, numeric, ref, status, text } from '../common/columns';
import { choiceFilter, referenceFilter } from '../common/filters';
import { dateRangeFilters } from '../common/inputs';
import { CURRENCY_CHOICES } from '../common/money';
import { RecordList } from '../common/RecordList';
import { choicesOf } from '../common/chipLooks';
import { PAYMENT_PLAN_STATUS_LOOKS } from './choices';

const filters = [
  referenceFilter('productId', 'products', { alwaysOn: true }),
  choiceFilter('status', choicesOf(PAYMENT_PLAN_STATUS_LOOKS)),
  <SelectInput key="currency" source="currency" choices={CURRENCY_CHOICES} />,
  ...dateRangeFilters('createdAt', 'Created'),
];

/** A product's payment plans, below the product (`withProduct`: in the list of every plan). */
export const paymentPlanColumns = (withProduct: boolean) => [
  ...(withProduct ? [ref('productId', 'products')] : []),
  numeric('instalments', { sortable: true }),
  money('instalmentAmount', { sortable: true }),
  text('currency'),
  status(PAYMENT_PLAN_STATUS_LOOKS),
  date('createdAt'),
];

export function PaymentPlanList() {
  return (
    <RecordList filters={filters} icon={CalendarMonthOutlinedIcon}>
      {paymentPlanColumns(true)}
    </RecordList>
  );
}
