import UpgradeOutlinedIcon from '@mui/icons-material/UpgradeOutlined';
import {
  AutocompleteInput,
  CreateButton,
  Datagrid,
  DateField,
  List,
  ReferenceField,
  ReferenceInput,
} from 'react-admin';
import { EmptyState, NoneFound } from '../common/EmptyState';

const filters = [
  <ReferenceInput key="upgradableFromId" source="upgradableFromId" reference="products" alwaysOn>
    <AutocompleteInput label="Upgrade from" />
  </ReferenceInput>,
  <ReferenceInput key="upgradableToId" source="upgradableToId" reference="products" alwaysOn>
    <AutocompleteInput label="Upgrade to" />
  </ReferenceInput>,
];

export function UpgradableProductList() {
  return (
    <List
      filters={filters}
      exporter={false}
      sort={{ field: 'createdAt', order: 'DESC' }}
      empty={
        <EmptyState
          icon={UpgradeOutlinedIcon}
          title="No upgrade paths yet"
          action={<CreateButton label="Add upgrade path" />}
        >
          An upgrade path lets owners of one product buy another with what they paid as credit, e.g. Fundamentals → Pro.
        </EmptyState>
      }
    >
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={<NoneFound>No upgrade path matches these filters.</NoneFound>}
      >
        <ReferenceField source="upgradableFromId" reference="products" link="show" sortable={false} />
        <ReferenceField source="upgradableToId" reference="products" link="show" sortable={false} />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}
