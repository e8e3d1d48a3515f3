import type { ProductRecord } from '@contract/catalog/schemas';
import type { Wire } from '@contract/shared/wire';
import { PRODUCT_TYPES, type ProductStatus, type ProductType } from '../../../api/src/shared/catalog';
import { choicesOf, type ChipLook } from '../common/chipLooks';

/** Each product type's name; a type the API adds fails the typecheck until it has one. */
const PRODUCT_TYPE_NAMES: Record<ProductType, string> = {
  'self-paced': 'Self-paced',
  live: 'Live',
  cohort: 'Cohort',
  membership: 'Membership',
};

export const PRODUCT_TYPE_CHOICES = PRODUCT_TYPES.map((id) => ({ id, name: PRODUCT_TYPE_NAMES[id] }));

export const PRODUCT_STATUS_LOOKS: Record<ProductStatus, ChipLook> = {
  draft: { label: 'Draft', color: 'warning' },
  active: { label: 'Active', color: 'success' },
  archived: { label: 'Archived', color: 'default' },
};

export const PRODUCT_STATUS_CHOICES = choicesOf(PRODUCT_STATUS_LOOKS);

/** A product as the console sees it (the `products` resource). */
export type Product = Wire<ProductRecord>;

export const seatsLabel = (seats: number | null | undefined) =>
  seats === -1 ? 'Unlimited' : seats === null || seats === undefined ? '—' : String(seats);
