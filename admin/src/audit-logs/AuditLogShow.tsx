import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { DateField, FunctionField, Show, SimpleShowLayout, TextField, useRecordContext } from 'react-admin';
import { JsonBlock } from '../common/JsonBlock';
import { StatusChipField } from '../common/StatusChipField';
import { ACTION_LOOKS, changedKeys, type AuditLog } from './choices';
import { ActorField, RecordLinkField, ResourceNameField } from './fields';

const show = (value: unknown) => (value === undefined ? '(absent)' : JSON.stringify(value, null, 1));

/** A field-by-field table of what changed. */
function Changes(_props: { label?: string }) {
  const entry = useRecordContext<AuditLog>();
  if (!entry) return null;
  const keys = changedKeys(entry);
  if (!keys.length) {
    return (
      <Typography variant="body2" color="text.secondary">
        No field changed.
      </Typography>
    );
  }
  return (
    <Table size="small" aria-label="Changed fields">
      <TableHead>
        <TableRow>
          <TableCell>Field</TableCell>
          <TableCell>Before</TableCell>
          <TableCell>After</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {keys.map((key) => (
          <TableRow key={key}>
            <TableCell component="th" scope="row" sx={{ fontFamily: 'monospace' }}>
              {key}
            </TableCell>
            <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {show(entry.before?.[key])}
            </TableCell>
            <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {show(entry.after?.[key])}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function EntryTitle() {
  const entry = useRecordContext<AuditLog>();
  return <>{entry ? `Audit entry #${entry.id}: ${entry.action} ${entry.resource}` : 'Audit entry'}</>;
}

export function AuditLogShow() {
  return (
    <Show title={<EntryTitle />} actions={false}>
      <SimpleShowLayout>
        <DateField source="createdAt" showTime />
        <ActorField source="actorEmail" label="resources.audit-logs.fields.actorId" />
        <StatusChipField source="action" looks={ACTION_LOOKS} />
        <ResourceNameField source="resource" />
        <RecordLinkField source="recordId" />
        <TextField source="requestId" emptyText="—" />
        <Changes label="Changes" />
        <FunctionField<AuditLog>
          label="Before and after"
          render={(entry) => (
            <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2 }}>
              <Box>
                <Typography variant="subtitle2" component="h2" gutterBottom>
                  Before
                </Typography>
                <JsonBlock value={entry.before} label="Before, as JSON" />
              </Box>
              <Box>
                <Typography variant="subtitle2" component="h2" gutterBottom>
                  After
                </Typography>
                <JsonBlock value={entry.after} label="After, as JSON" />
              </Box>
            </Box>
          )}
        />
        <TextField source="id" />
      </SimpleShowLayout>
    </Show>
  );
}
