import { Box, Typography } from '@mui/material';
import MenuBookOutlinedIcon from '@mui/icons-material/MenuBookOutlined';
import {
  AutocompleteInput,
  CreateButton,
  Datagrid,
  DateField,
  FunctionField,
  List,
  ReferenceInput,
  SearchInput,
  SelectInput,
  TextField,
  usePermissions,
} from 'react-admin';
import { canRead } from '../permissions';
import { LearningListActions } from './shared';
import { STATE_CHOICES, TYPE_CHOICES, typeLabel } from './choices';
import { StateField } from './StateField';
import type { ContentResource } from './types';

type User = { id: string; name: string | null; email: string };

function contentFilters(mayReadUsers: boolean) {
  return [
    <SearchInput key="q" source="q" alwaysOn placeholder="Search title or slug" />,
    <SelectInput key="type" source="type" label="Type" choices={TYPE_CHOICES} alwaysOn />,
    <SelectInput key="state" source="state" label="State" choices={STATE_CHOICES} alwaysOn />,
    ...(mayReadUsers
      ? [
          <ReferenceInput key="createdById" source="createdById" reference="users" alwaysOn>
            <AutocompleteInput
              label="Author"
              optionText={(u: User) => u.name || u.email}
              filterToQuery={(q: string) => ({ q })}
              sx={{ minWidth: 240 }}
            />
          </ReferenceInput>,
        ]
      : []),
  ];
}

function NoContent() {
  return (
    <Box sx={{ textAlign: 'center', py: 8, px: 2, width: '100%' }}>
      <MenuBookOutlinedIcon sx={{ fontSize: 64, color: 'text.disabled' }} aria-hidden />
      <Typography variant="h6" component="p">
        No content yet
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Courses, modules, sections, lessons, solutions and pages appear here.
      </Typography>
      <CreateButton label="Create content" />
    </Box>
  );
}

export function ContentResourceList() {
  const { permissions } = usePermissions();
  return (
    <List
      actions={<LearningListActions />}
      filters={contentFilters(canRead(permissions, 'users'))}
      sort={{ field: 'updatedAt', order: 'DESC' }}
      empty={<NoContent />}
    >
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={
          <Typography sx={{ p: 2 }} color="text.secondary">
            No content matches these filters.
          </Typography>
        }
      >
        <TextField source="fields.title" sortBy="title" />
        <FunctionField<ContentResource> source="type" render={(r) => typeLabel(r.type)} sortBy="type" />
        <StateField source="fields.state" sortable={false} />
        <DateField source="updatedAt" showTime />
      </Datagrid>
    </List>
  );
}
