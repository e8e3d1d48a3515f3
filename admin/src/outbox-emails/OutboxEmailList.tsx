import { Box, Typography } from '@mui/material';
import MarkEmailReadOutlinedIcon from '@mui/icons-material/MarkEmailReadOutlined';
import { Datagrid, DateField, List, NumberField, SearchInput, SelectInput, TextField } from 'react-admin';
import { KIND_CHOICES, STATUS_CHOICES } from './choices';
import { RetryButton } from './RetryButton';
import { StatusField } from './StatusField';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Search address or subject" />,
  <SelectInput key="status" source="status" choices={STATUS_CHOICES} alwaysOn />,
  <SelectInput key="kind" source="kind" choices={KIND_CHOICES} alwaysOn />,
];

function NoEmails() {
  return (
    <Box sx={{ textAlign: 'center', py: 8, px: 2, width: '100%' }}>
      <MarkEmailReadOutlinedIcon sx={{ fontSize: 64, color: 'text.disabled' }} aria-hidden />
      <Typography variant="h6" component="p">
        No emails sent yet
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Every email the product sends (sign-in links and the rest) is recorded here with its delivery status.
      </Typography>
    </Box>
  );
}

export function OutboxEmailList() {
  return (
    <List filters={filters} sort={{ field: 'createdAt', order: 'DESC' }} empty={<NoEmails />} title="Email outbox">
      <Datagrid
        rowClick="show"
        bulkActionButtons={false}
        empty={
          <Typography sx={{ p: 2 }} color="text.secondary">
            No email matches these filters.
          </Typography>
        }
      >
        <DateField source="createdAt" label="Created" showTime />
        <TextField source="toAddress" label="To" />
        <TextField source="subject" sortable={false} />
        <TextField source="kind" sortable={false} />
        <StatusField label="Status" sortBy="status" />
        <NumberField source="attempts" />
        <DateField source="sentAt" label="Sent" showTime emptyText="—" sortable={false} />
        <RetryButton />
      </Datagrid>
    </List>
  );
}
