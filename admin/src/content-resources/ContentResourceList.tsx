import MenuBookOutlinedIcon from '@mui/icons-material/MenuBookOutlined';
import { CreateButton, SelectInput, TextField, usePermissions } from 'react-admin';
import { date } from '../common/columns';
import { SearchInput } from '../common/SearchInput';
import { canRead } from '../permissions';
import { LearningList, userFilter } from './shared';
import { STATE_CHOICES, TYPE_CHOICES } from './choices';
import { StateField } from './StateField';
import { TypeField } from './TypeField';

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
    ...(mayReadUsers ? [userFilter('createdById')] : []),
  ];
}

export function ContentResourceList() {
  const { permissions } = usePermissions();
  return (
    <LearningList
      filters={contentFilters(canRead(permissions, 'users'))}
      sort={{ field: 'updatedAt', order: 'DESC' }}
      icon={MenuBookOutlinedIcon}
      texts={{
        title: 'console.content.empty.title',
        body: 'console.content.empty.body',
        noMatch: 'console.content.empty.noMatch',
      }}
      emptyAction={<CreateButton label="console.content.empty.create" />}
    >
      <TextField source="fields.title" sortBy="title" />
      <TypeField source="type" sortBy="type" />
      <StateField source="fields.state" sortable={false} />
      {date('updatedAt')}
    </LearningList>
  );
}
