import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { FunctionField, useRecordContext, useTranslate } from 'react-admin';
import { auditActionInWords } from '../../../api/src/shared/audit-actions';
import { text } from '../common/columns';
import { JsonBlock } from '../common/JsonBlock';
import { RecordShow } from '../common/RecordShow';
import { entryColumns } from './AuditLogList';
import { changedKeys, type AuditLog } from './choices';

/** A field-by-field table of what changed. */
function Changes(_props: { label?: string }) {
  const entry = useRecordContext<AuditLog>();
  const translate = useTranslate();
  if (!entry) return null;
  const show = (value: unknown) =>
    value === undefined ? translate('console.audit.absent') : JSON.stringify(value, null, 1);
  const keys = changedKeys(entry);
  if (!keys.length) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('console.audit.noChange')}
      </Typography>
    );
  }
  return (
    <Table size="small" aria-label={translate('console.audit.changedFields')}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('console.audit.field')}</TableCell>
          <TableCell>{translate('console.audit.before')}</TableCell>
          <TableCell>{translate('console.audit.after')}</TableCell>
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
  const translate = useTranslate();
  return (
    <>
      {entry
        ? translate('console.audit.title', {
            id: entry.id,
            action: auditActionInWords(entry.action),
            resource: entry.resource,
          })
        : translate('console.audit.titleLoading')}
    </>
  );
}

export function AuditLogShow() {
  return (
    <RecordShow title={<EntryTitle />} actions={false}>
      {entryColumns}
      <Changes label="console.audit.changes" />
      <FunctionField<AuditLog>
        label="console.audit.beforeAndAfter"
        render={(entry) => <BeforeAndAfter entry={entry} />}
      />
      {text('id')}
    </RecordShow>
  );
}

function BeforeAndAfter({ entry }: { entry: AuditLog }) {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2 }}>
      {(['before', 'after'] as const).map((side) => (
        <Box key={side}>
          <Typography variant="subtitle2" component="h2" gutterBottom>
            {translate(`console.audit.${side}`)}
          </Typography>
          <JsonBlock value={entry[side]} label={`console.audit.${side}Json`} />
        </Box>
      ))}
    </Box>
  );
}
