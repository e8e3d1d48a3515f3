import MenuBookOutlinedIcon from '@mui/icons-material/MenuBookOutlined';
import {
  AutocompleteInput,
  CreateButton,
  Datagrid,
  DateField,
  List,
  ReferenceInput,
  SelectInput,
  TextField,
  usePermissions,
} from 'react-admin';
import { EmptyState, NoneFound } from '../common/EmptyState';
import { SearchInput } from '../common/SearchInput';
import { canRead } from '../permissions';
import { LearningListActions } from './shared';
import { STATE_CHOICES, TYPE_CHOICES } from './choices';
import { StateField } from './StateField';
import { TypeField } from './TypeField';

type User = { id: string; name: string | null; email: string };

function contentFilters(mayReadUsers: boolean) {
  return [
    <SearchInput key="q" source="q" alwaysOn placeholder="console.content.search" />,
    <SelectInput
      key="type"
      source="type"
      label="resources.content-resources.fields.type"
      choices={TYPE_CHOICES}
      alwaysOn
    />,
    <SelectInput
      key="state"
      source="state"
      label="resources.content-resources.fields.state"
      choices={STATE_CHOICES}
      alwaysOn
    />,
    ...(mayReadUsers
      ? [
          <ReferenceInput key="createdById" source="createdById" reference="users" alwaysOn>
            <AutocompleteInput
              label="resources.content-resources.fields.createdById"
              optionText={(u: User) => u.name || u.email}
              filterToQuery={(q: string) => ({ q })}
              sx={{ minWidth: 240 }}
            />
          </ReferenceInput>,
        ]
      : []),
  ];
}

export function ContentResourceList() {
  const { permissions } = usePermissions();
  return (
    <List
      actions={<LearningListActions />}
      filters={contentFilters(canRead(permissions, 'users'))}
      sort={{ field: 'updatedAt', order: 'DESC' }}
      empty={
        <EmptyState
          icon={MenuBookOutlinedIcon}
          title="console.content.empty.title"
          action={<CreateButton label="console.content.empty.create" />}
        >
          console.content.empty.body
        </EmptyState>
      }
    >
      <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoneFound>console.content.empty.noMatch</NoneFound>}>
        <TextField source="fields.title" sortBy="title" />
        <TypeField source="type" sortBy="type" />
        <StateField source="fields.state" sortable={false} />
        <DateField source="updatedAt" showTime />
      </Datagrid>
    </List>
  );
}
