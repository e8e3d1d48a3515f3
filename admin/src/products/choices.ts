import { choicesOf, type ChipLook } from '../common/StatusChipField';

export const PRODUCT_TYPE_CHOICES = [
  { id: 'self-paced', name: 'Self-paced' },
  { id: 'live', name: 'Live' },
  { id: 'cohort', name: 'Cohort' },
  { id: 'membership', name: 'Membership' },
];

export const PRODUCT_STATUS_LOOKS: Record<string, ChipLook> = {
  active: { label: 'Active', color: 'success' },
  archived: { label: 'Archived', color: 'default' },
};

export const PRODUCT_STATUS_CHOICES = choicesOf(PRODUCT_STATUS_LOOKS);

export interface Product {
  id: string;
  name: string;
  key: string | null;
  slug: string | null;
  description: string | null;
  productType: 'self-paced' | 'live' | 'cohort' | 'membership';
  status: 'active' | 'archived';
  quantityAvailable: number;
  enrollmentOpensAt: string | null;
  enrollmentClosesAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const seatsLabel = (seats: number | null | undefined) =>
  seats === -1 ? 'Unlimited' : seats === null || seats === undefined ? '—' : String(seats);
