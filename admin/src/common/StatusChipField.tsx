import { Chip } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { ChipLook } from './chipLooks';

interface StatusChipFieldProps {
  source: string;
  looks: Record<string, ChipLook>;
  /** Read by Datagrid and the show layouts. */
  label?: string;
  sortable?: boolean;
  sortBy?: string;
}

/** An enum value (a status, a state, a type) as a coloured chip with a readable label. */
export function StatusChipField({ source, looks }: StatusChipFieldProps) {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const value = record[source] as string | null | undefined;
  if (value === null || value === undefined) return <>—</>;
  const look = looks[value] ?? { label: value, color: 'default' as const };
  return (
    <Chip
      size="small"
      label={translate(look.label, { _: look.label })}
      color={look.color}
      variant={look.outlined || look.color === 'default' ? 'outlined' : 'filled'}
    />
  );
}
