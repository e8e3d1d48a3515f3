import { Box, Typography } from '@mui/material';
import PeopleAltOutlinedIcon from '@mui/icons-material/PeopleAltOutlined';
import { Datagrid, DateField, List, SearchInput, SelectInput, TextField } from 'react-admin';
import { ROLE_CHOICES } from './choices';
import { RolesField } from './RolesField';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search email or name" />,
  <SelectInput key="roles" source="roles" label="Role" choices={ROLE_CHOICES} alwaysOn />,
];

function NoUsers() {
  return (
    <Box sx={{ textAlign: 'center', py: 8, px: 2, width: '100%' }}>
      <PeopleAltOutlinedIcon sx={{ fontSize: 64, color: 'text.disabled' }} aria-hidden />
      <Typography variant="h6" component="p">
        No users yet
      </Typography>
      <Typography variant="body2" color="text.secondary">
        People appear here the first time they sign in or buy something.
      </Typography>
    </Box>
  );
}

export function UserList() {
  return (
    <List filters={filters} sort={{ field: 'createdAt', order: 'DESC' }} empty={<NoUsers />}>
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={
          <Typography sx={{ p: 2 }} color="text.secondary">
            No user matches these filters.
          </Typography>
        }
      >
        <TextField source="email" />
        <TextField source="name" emptyText="—" />
        <RolesField label="Roles" sortable={false} />
        <DateField source="createdAt" label="Joined" showTime />
      </Datagrid>
    </List>
  );
}
