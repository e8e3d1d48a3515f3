import type { ProductType } from '../shared/catalog';

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────
// What the catalog endpoints answer, as the services build them (dates as `Date`); the storefront reads them as
// `Wire<…>` (api/src/shared/wire.ts). Type-only: the apps' typecheck reads this file, so no Node module here.

export type { ProductType };

/** Where a product's enrollment window stands (no window: always open). */
export type EnrollmentState = 'open' | 'not-open' | 'closed';

/** GET /api/store/products (in `data`): an active product, with its one current price. */
export interface StoreProduct {
  id: string;
  name: string;
  slug: string | null;
  description: string | null;
  productType: ProductType;
  quantityAvailable: number;
  /** Seats still for sale; null when the product is not limited. */
  seatsLeft: number | null;
  enrollment: { state: EnrollmentState; opensAt: Date | null; closesAt: Date | null };
  /** The published courses the product grants, in order. */
  courses: { id: string; slug: string | null; title: string }[];
  price: { id: string; unitAmount: number; currency: string; nickname: string | null } | null;
}
