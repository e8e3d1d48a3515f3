import type { StoreProduct } from '../api/catalog';

export const TYPE_LABEL: Record<StoreProduct['productType'], string> = {
  'self-paced': 'Self-paced',
  live: 'Live',
  cohort: 'Cohort',
  membership: 'Membership',
};
