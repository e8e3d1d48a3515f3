import PieChartIcon from '@mui/icons-material/PieChart';
import { DateField, ReferenceField, SelectField, Show, SimpleShowLayout, TextField } from 'react-admin';
import { formatPercent } from '../common/money';
import { PercentField } from '../common/MoneyField';
import { SPLIT_TYPE_CHOICES, type RevenueSplit } from './choices';
import { SplitCreate } from './SplitCreate';
import { SplitEdit } from './SplitEdit';
import { SplitList } from './SplitList';

function SplitShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <ReferenceField source="productId" reference="products" link="show" />
        <SelectField source="type" choices={SPLIT_TYPE_CHOICES} />
        <ReferenceField source="userId" reference="users" link="show" emptyText="The platform" />
        <PercentField source="percent" />
        <DateField source="createdAt" showTime />
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}

export default {
  list: SplitList,
  show: SplitShow,
  edit: SplitEdit,
  create: SplitCreate,
  icon: PieChartIcon,
  recordRepresentation: (s: RevenueSplit) =>
    `${SPLIT_TYPE_CHOICES.find((c) => c.id === s.type)?.name ?? s.type} ${formatPercent(s.percent)}`,
};
