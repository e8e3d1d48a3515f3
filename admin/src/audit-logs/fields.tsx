import type { MouseEvent } from 'react';
import { Link as MuiLink, Typography } from '@mui/material';
import { Link, useCreatePath, useRecordContext, useResourceDefinitions, useTranslate } from 'react-admin';
import type { AuditLog } from './choices';

/** The resource's plural name, as the menu shows it. */
export function ResourceNameField(_props: { source?: string; label?: string; sortable?: boolean }) {
  const entry = useRecordContext<AuditLog>();
  const translate = useTranslate();
  if (!entry) return null;
  return (
    <Typography component="span" variant="body2">
      {translate(`resources.${entry.resource}.name`, { smart_count: 2, _: entry.resource })}
    </Typography>
  );
}

/** The changed record's id, as a link to it when the console has a page for it. */
export function RecordLinkField(_props: { source?: string; label?: string; sortable?: boolean }) {
  const entry = useRecordContext<AuditLog>();
  const resources = useResourceDefinitions();
  const createPath = useCreatePath();
  if (!entry) return null;
  if (!entry.recordId) return <>—</>;
  const short = entry.recordId.length > 12 ? `${entry.recordId.slice(0, 8)}…` : entry.recordId;
  if (entry.action === 'delete' || !resources[entry.resource]?.hasShow) {
    return (
      <Typography component="span" variant="body2" title={entry.recordId} sx={{ fontFamily: 'monospace' }}>
        {short}
      </Typography>
    );
  }
  return (
    <MuiLink
      component={Link}
      to={createPath({ resource: entry.resource, id: entry.recordId, type: 'show' })}
      title={entry.recordId}
      sx={{ fontFamily: 'monospace' }}
      onClick={(event: MouseEvent) => event.stopPropagation()}
    >
      {short}
    </MuiLink>
  );
}

/** Who did it: the email recorded at the time (accounts may be gone since), or "system". */
export function ActorField(_props: { source?: string; label?: string; sortable?: boolean }) {
  const entry = useRecordContext<AuditLog>();
  const createPath = useCreatePath();
  const resources = useResourceDefinitions();
  const translate = useTranslate();
  if (!entry) return null;
  const text = entry.actorEmail ?? (entry.actorId ? entry.actorId : translate('console.audit.system'));
  if (!entry.actorId || !resources.users?.hasShow) return <>{text}</>;
  return (
    <MuiLink
      component={Link}
      to={createPath({ resource: 'users', id: entry.actorId, type: 'show' })}
      onClick={(event: MouseEvent) => event.stopPropagation()}
    >
      {text}
    </MuiLink>
  );
}
