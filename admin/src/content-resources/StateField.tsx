import { Chip } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { stateLabel } from './choices';
import type { ContentResource } from './types';

const COLORS: Record<string, 'success' | 'default' | 'warning'> = {
  published: 'success',
  draft: 'default',
  archived: 'warning',
};

export function StateChip({ state }: { state: string | null | undefined }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      label={stateLabel(translate, state)}
      color={COLORS[state ?? ''] ?? 'default'}
      variant={state === 'published' ? 'filled' : 'outlined'}
      sx={{ alignSelf: 'flex-start', width: 'fit-content' }}
    />
  );
}

/** The record's `fields.state` as a chip. The props are read by Datagrid (column label, sorting). */
export function StateField(_props: { label?: string; sortable?: boolean; source?: string }) {
  const record = useRecordContext<ContentResource>();
  if (!record) return null;
  return <StateChip state={record.fields?.state} />;
}
