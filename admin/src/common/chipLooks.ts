import { ACTIVE_STATUSES, type ActiveStatus } from '../../../api/src/shared/active-status';
import type { CatalogStatus } from '@contract/shared/catalog';

/** How an enum value looks as a chip (StatusChipField.tsx): plain data, so that lists of values need no component. */
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
