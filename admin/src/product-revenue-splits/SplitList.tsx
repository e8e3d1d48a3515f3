import PieChartOutlineIcon from '@mui/icons-material/PieChartOutlineOutlined';
import { SelectField } from 'react-admin';
import { date, percent, ref } from '../common/columns';
import { choiceFilter, referenceFilter } from '../common/filters';
import { RecordList } from '../common/RecordList';
import { SPLIT_TYPE_CHOICES } from './choices';

const filters = [
  referenceFilter('productId', 'products', { alwaysOn: true }),
  choiceFilter('type', SPLIT_TYPE_CHOICES),
  referenceFilter('userId', 'users', { alwaysOn: true }),
];

/** A product's splits, below the product (`withProduct`: in the list of every split). */
export const splitColumns = (withProduct: boolean) => [
  ...(withProduct ? [ref('productId', 'products')] : []),
  <SelectField key="type" source="type" choices={SPLIT_TYPE_CHOICES} />,
  ref('userId', 'users', { emptyText: 'resources.product-revenue-splits.platform' }),
  percent('percent'),
  date('createdAt', { showTime: false }),
];

export function SplitList() {
  return (
    <RecordList filters={filters} icon={PieChartOutlineIcon} sort={{ field: 'createdAt', order: 'ASC' }}>
      {splitColumns(true)}
    </RecordList>
  );
}
