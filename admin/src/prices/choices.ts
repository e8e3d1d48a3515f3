import type { PriceRecord } from '@contract/catalog/schemas';
import type { Wire } from '@contract/shared/wire';
import type { CatalogStatus } from '@contract/shared/catalog';
import type { ChipLook } from '../common/chipLooks';

export const PRICE_STATUS_LOOKS: Record<CatalogStatus, ChipLook> = {
  active: { label: 'Current', color: 'success' },
  archived: { label: 'Archived', color: 'default' },
};

/** A product's price as the console sees it (the `prices` resource). */
export type Price = Wire<PriceRecord>;
