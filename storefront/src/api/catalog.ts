import { getJson } from './client';

export interface StoreProduct {
  id: string;
  name: string;
  slug: string | null;
  description: string | null;
  productType: 'self-paced' | 'live' | 'cohort' | 'membership';
  quantityAvailable: number;
  /** Seats still for sale; null when the course is not limited. */
  seatsLeft: number | null;
  enrollment: { state: 'open' | 'not-open' | 'closed'; opensAt: string | null; closesAt: string | null };
  /** The published courses the product grants, in order. */
  courses: { id: string; slug: string | null; title: string }[];
  price: { id: string; unitAmount: number; currency: string; nickname: string | null } | null;
}

export async function listProducts(): Promise<StoreProduct[]> {
  return (await getJson<{ data: StoreProduct[] }>('/api/store/products')).data;
}

/** Whether the course can be bought now, and why not when it cannot. */
export function saleBlocker(product: StoreProduct): 'sold-out' | 'not-open' | 'closed' | null {
  if (product.enrollment.state !== 'open') return product.enrollment.state;
  return product.seatsLeft === 0 ? 'sold-out' : null;
}

/** The product a page address names, by slug or id; null when it is not on sale (archived or unknown). */
export function findProduct(products: StoreProduct[], slugOrId: string): StoreProduct | null {
  return products.find((p) => p.slug === slugOrId) ?? products.find((p) => p.id === slugOrId) ?? null;
}

/** Where a product's page is: its slug when it has one. */
export function productPath(product: Pick<StoreProduct, 'id' | 'slug'>): string {
  return `/products/${encodeURIComponent(product.slug ?? product.id)}`;
}
