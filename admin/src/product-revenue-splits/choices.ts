import type { RevenueSplitRecord } from '@contract/finance/schemas';
import type { Wire } from '@contract/shared/wire';
import { RECIPIENT_TYPES, type RecipientType } from '../../../api/src/shared/finance';

/** Each recipient type's name; a type the API adds fails the typecheck until it has one. */
const SPLIT_TYPE_NAMES: Record<RecipientType, string> = {
  platform: 'Platform',
  owner: 'Owner',
  contributor: 'Contributor',
};

export const SPLIT_TYPE_CHOICES = RECIPIENT_TYPES.map((id) => ({ id, name: SPLIT_TYPE_NAMES[id] }));

/** The platform's split, which pays no user. */
export const isPlatformSplit = (type: unknown) => type === ('platform' satisfies RecipientType);

/** A product's revenue split as the console sees it (the `product-revenue-splits` resource). */
export type RevenueSplit = Wire<RevenueSplitRecord>;
