import type * as Catalog from '@contract/catalog/schemas';
import type { ListAnswer, Wire } from '@contract/shared/wire';
import { getJson } from './client';

/** GET /api/store/products (in `data`): an active product, with its one current price. */
export type StoreProduct = Wire<Catalog.StoreProduct>;

export async function listProducts(): Promise<StoreProduct[]> {
  return (await getJson<ListAnswer<StoreProduct>>('/api/store/products')).data;
}

/** Why a course cannot be bought now: its enrollment window, no price yet, or no seat left. */
export type SaleBlocker = Exclude<StoreProduct['enrollment']['state'], 'open'> | 'not-on-sale' | 'sold-out';

/**
 * Whether the course can be bought now, and why not when it cannot, in the order the API's waitlist and checkout
 * decide it: the enrollment window, then the price, then the seats.
 */
export function saleBlocker(product: StoreProduct): SaleBlocker | null {
  if (product.enrollment.state !== 'open') return product.enrollment.state;
  if (!product.price) return 'not-on-sale';
  return product.seatsLeft === 0 ? 'sold-out' : null;
}

/** Where a product's page is: its slug when it has one. */
export function productPath(product: Pick<StoreProduct, 'id' | 'slug'>): string {
  return `/products/${encodeURIComponent(product.slug ?? product.id)}`;
}

/** GET /api/store/products/:slugOrId: the sales page in one answer (curriculum, included, instructors, FAQ …). */
export type StoreProductPage = Wire<Catalog.StoreProductPage>;
export type CurriculumCourse = Wire<Catalog.CurriculumCourse>;
export type CurriculumLesson = Wire<Catalog.CurriculumLesson>;
export type Instructor = Wire<Catalog.Instructor>;
export type StoreSale = Wire<Catalog.StoreSale>;

export function getProductPage(slugOrId: string): Promise<StoreProductPage> {
  return getJson(`/api/store/products/${encodeURIComponent(slugOrId)}`);
}

/** GET /api/store/owned-products: the products the signed-in learner holds themselves. */
export async function listOwnedProductIds(): Promise<string[]> {
  return (await getJson<ListAnswer<string>>('/api/store/owned-products')).data;
}
