import { Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';

/** A uuid shortened to its first 8 characters (the full id in the tooltip), for lists of records without a name. */
export function ShortIdField({ source = 'id' }: { source?: string; label?: string; sortable?: boolean; sortBy?: string }) {
  const record = useRecordContext();
  if (!record) return null;
  const id = record[source] as string | number | null | undefined;
  if (id === null || id === undefined) return <>—</>;
  const text = String(id);
  return (
    <Typography component="span" variant="body2" title={text} sx={{ fontFamily: 'monospace' }}>
      {text.length > 12 ? `${text.slice(0, 8)}…` : text}
    </Typography>
  );
}

export const shortId = (id: unknown): string => {
  const text = String(id ?? '');
  return text.length > 12 ? text.slice(0, 8) : text;
};
