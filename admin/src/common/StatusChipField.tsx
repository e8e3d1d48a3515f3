import { Chip } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { ACTIVE_STATUSES, type ActiveStatus } from '../../../api/src/shared/active-status';
import type { CatalogStatus } from '@contract/shared/catalog';

export type ChipColor = 'default' | 'primary' | 'secondary' | 'success' | 'error' | 'warning' | 'info';

export interface ChipLook {
  /** The value's name (a translation key or the words themselves). */
  label: string;
  /** Its name in a filter's or a form's choices, when longer than the chip's. */
  choice?: string;
  color: ChipColor;
  /** Drawn in outline though coloured, e.g. a state still under way (uncoloured chips always are). */
  outlined?: boolean;
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

/** A switched-off record's status (coupons, provider records) and an archived product's or price's, in the same words. */
export const ACTIVE_INACTIVE: Record<ActiveStatus | CatalogStatus, ChipLook> = {
  active: { label: 'Active', color: 'success' },
  inactive: { label: 'Inactive', color: 'default' },
  archived: { label: 'Archived', color: 'default' },
};

/** The choices of a select (a filter, a form) on the same values as the chips, in the same words. */
export function choicesOf(looks: Record<string, ChipLook>, only?: readonly string[]) {
  return Object.entries(looks)
    .filter(([id]) => !only || only.includes(id))
    .map(([id, look]) => ({ id, name: look.choice ?? look.label }));
}

export const ACTIVE_INACTIVE_CHOICES = choicesOf(ACTIVE_INACTIVE, ACTIVE_STATUSES);
