import TuneOutlinedIcon from '@mui/icons-material/TuneOutlined';
import { Datagrid, DateField, List, SelectInput, TextField } from 'react-admin';
import {
  ContentRefField,
  ContentReferenceInput,
  EmptyState,
  NoMatch,
  UserRefField,
  UserReferenceInput,
  LearningListActions,
} from '../content-resources/shared';
import { PREF_TYPE_CHOICES } from './choices';

const filters = [
  <UserReferenceInput key="userId" source="userId" label="User" alwaysOn />,
  <SelectInput key="type" source="type" label="Scope" choices={PREF_TYPE_CHOICES} alwaysOn />,
  <ContentReferenceInput key="resourceId" source="resourceId" label="Content" />,
];

export function UserPrefsList() {
  return (
    <List
      actions={<LearningListActions />}
      filters={filters}
      sort={{ field: 'updatedAt', order: 'DESC' }}
      empty={
        <EmptyState icon={TuneOutlinedIcon} title="No preferences saved yet">
          Playback speed, theme and other settings appear here once a learner changes them.
        </EmptyState>
      }
    >
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={<NoMatch>No preferences match these filters.</NoMatch>}
      >
        <UserRefField source="userId" sortable={false} />
        <TextField source="type" sortable={false} />
        <ContentRefField source="resourceId" sortable={false} />
        <DateField source="updatedAt" showTime />
      </Datagrid>
    </List>
  );
}
