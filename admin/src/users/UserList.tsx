import PeopleAltOutlinedIcon from '@mui/icons-material/PeopleAltOutlined';
import { SelectInput } from 'react-admin';
import { date, text } from '../common/columns';
import { searchFilter } from '../common/filters';
import { RecordList } from '../common/RecordList';
import { ROLE_CHOICES } from './choices';
import { RolesField } from './RolesField';

const filters = [
  searchFilter('resources.users.search'),
  <SelectInput key="roles" source="roles" label="resources.users.fields.role" choices={ROLE_CHOICES} alwaysOn />,
];

export function UserList() {
  return (
    <RecordList filters={filters} icon={PeopleAltOutlinedIcon} exporter>
      {text('email', { sortable: true })}
      {text('name', { sortable: true, emptyText: '—' })}
      <RolesField label="resources.users.fields.roles" sortable={false} />
      {date('createdAt')}
    </RecordList>
  );
}
