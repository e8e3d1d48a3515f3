import type { CatalogStatus, ProductType } from '../shared/catalog';

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

/** A product as the console sees it (the `products` resource: the row, every column). */
export interface ProductRecord {
  id: string;
  name: string;
  key: string | null;
  slug: string | null;
  description: string | null;
  productType: ProductType;
  status: CatalogStatus;
  /** −1 for unlimited, else the seats for sale. */
  quantityAvailable: number;
  enrollmentOpensAt: Date | null;
  enrollmentClosesAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A product's price as the console sees it (the `prices` resource); archived ones stay for history. */
export interface PriceRecord {
  id: string;
  productId: string;
  nickname: string | null;
  status: CatalogStatus;
  /** In cents. */
  unitAmount: number;
  currency: string;
  createdAt: Date;
}
