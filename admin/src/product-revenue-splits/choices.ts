export const SPLIT_TYPE_CHOICES = [
  { id: 'platform', name: 'Platform' },
  { id: 'owner', name: 'Owner' },
  { id: 'contributor', name: 'Contributor' },
];

export interface RevenueSplit {
  id: string;
  productId: string;
  type: 'platform' | 'owner' | 'contributor';
  percent: number;
  userId: string | null;
  createdAt: string;
}
