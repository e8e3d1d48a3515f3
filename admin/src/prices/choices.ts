import type { ChipLook } from '../common/StatusChipField';

export const PRICE_STATUS_LOOKS: Record<string, ChipLook> = {
  active: { label: 'Current', color: 'success' },
  archived: { label: 'Archived', color: 'default' },
};

export interface Price {
  id: string;
  productId: string;
  nickname: string | null;
  status: 'active' | 'archived';
  unitAmount: number;
  currency: string;
  createdAt: string;
}
