import { Chip } from '@mui/material';
import { useRecordContext } from 'react-admin';

export type ChipColor = 'default' | 'primary' | 'secondary' | 'success' | 'error' | 'warning' | 'info';

export interface ChipLook {
  label: string;
  color: ChipColor;
}

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
  if (!record) return null;
  const value = record[source] as string | null | undefined;
  if (value === null || value === undefined) return <>—</>;
  const look = looks[value] ?? { label: value, color: 'default' as const };
  return (
    <Chip
      size="small"
      label={look.label}
      color={look.color}
      variant={look.color === 'default' ? 'outlined' : 'filled'}
    />
  );
}

export const ACTIVE_INACTIVE: Record<string, ChipLook> = {
  active: { label: 'Active', color: 'success' },
  inactive: { label: 'Inactive', color: 'default' },
  archived: { label: 'Archived', color: 'default' },
};

export const ACTIVE_INACTIVE_CHOICES = [
  { id: 'active', name: 'Active' },
  { id: 'inactive', name: 'Inactive' },
];
