import type { ReadCaches } from '../cache/read-cache';
import type { Clock } from '../clock';
import { seatsSoldOf } from './seats-sold';
import type { Db } from '../db/connection';
import type { LearningService } from '../learning/learning';
import { imageFields } from '../media/images';
import { instructorsOf, lessonFacts } from './course-outline';
import type { Price, Product } from './models';
import { salesKey, type SalesOf } from './sales';
import type { EnrollmentState, StoreProduct, StoreSale } from './schemas';

/** Where a product's enrollment window stands at `now` (no window: always open). */
export function enrollmentState(
  product: Pick<Product, 'enrollmentOpensAt' | 'enrollmentClosesAt'>,
  now: Date,
): EnrollmentState {
  if (product.enrollmentOpensAt && product.enrollmentOpensAt > now) return 'not-open';
  if (product.enrollmentClosesAt && product.enrollmentClosesAt <= now) return 'closed';
  return 'open';
}

/** The published courses each product grants, in order. */
export async function coursesOfProducts(db: Db, productIds: string[]): Promise<Map<string, StoreProduct['courses']>> {
  const rows = productIds.length
    ? await db('productContentResources as pc')
        .join('contentResources as r', 'r.id', 'pc.resourceId')
        .whereIn('pc.productId', productIds)
        .where('r.type', 'course')
        .whereNull('r.deletedAt')
        .whereRaw(`r.fields->>'state' = 'published'`)
        .orderBy(['pc.productId', 'pc.position'])
        .select('pc.productId', 'r.id', db.raw(`r.fields->>'slug' AS slug`), db.raw(`r.fields->>'title' AS title`))
    : [];
  const byProduct = new Map<string, StoreProduct['courses']>();
  for (const row of rows as { productId: string; id: string; slug: string | null; title: string }[]) {
    byProduct.set(row.productId, [
      ...(byProduct.get(row.productId) ?? []),
      { id: row.id, slug: row.slug, title: row.title },
    ]);
  }
  return byProduct;
}

/**
 * Gives each product its current price, as `prices` (docs/domain.md §2, Price: a product has one; a membership one
 * per billing interval, its default interval's first, as the price it is shown at).
 */
export async function withCurrentPrices(db: Db, products: Product[]): Promise<Product[]> {
  const prices: Price[] = products.length
    ? await db('prices')
        .whereIn(
          'productId',
          products.map((p) => p.id),
        )
        .where('status', 'active')
    : [];
  const notDefault = (product: Product, price: Price) => Number(price.billingInterval !== product.billingInterval);
  for (const product of products)
    product.prices = prices
      .filter((price) => price.productId === product.id)
      .sort((a, b) => notDefault(product, a) - notDefault(product, b));
  return products;
}

/** What a product's card says of its content: lessons, their length, who teaches it. */
type OutlineFacts = Pick<StoreProduct, 'lessonCount' | 'durationMinutes' | 'instructorNames'>;

/** A product as the storefront sees it, from its row and what is worked out per request. */
export function storeProduct(
  p: Product,
  {
    courses,
    sold,
    state,
    sale,
    outline,
  }: {
    courses: StoreProduct['courses'];
    sold: number;
    state: EnrollmentState;
    sale: StoreSale | null;
    outline: OutlineFacts;
  },
): StoreProduct {
  const price = p.prices?.[0];
  return {
    id: p.id,
    name: p.name,
    slug: p.slug,
    description: p.description,
    productType: p.productType,
    quantityAvailable: p.quantityAvailable,
    seatsLeft: p.quantityAvailable >= 0 ? Math.max(0, p.quantityAvailable - sold) : null,
    enrollment: { state, opensAt: p.enrollmentOpensAt, closesAt: p.enrollmentClosesAt },
    courses,
    price: price
      ? { id: price.id, unitAmount: price.unitAmount, currency: price.currency, nickname: price.nickname }
      : null,
    sale: price ? sale : null,
    image: imageFields(p.imageKey, p.imageAlt),
    ...outline,
  };
}

/**
 * The home page's order: what can be bought now first (open, priced, seats left), then the rest; within each, the
 * featured order staff set (1 first), then the products not featured, newest first (the order they come in).
 */
function homeOrder<T extends { product: Product; buyable: boolean }>(items: T[]): T[] {
  const rank = (p: Product) => p.featuredRank ?? Number.POSITIVE_INFINITY;
  return [...items].sort((a, b) => Number(b.buyable) - Number(a.buyable) || rank(a.product) - rank(b.product));
}

export function catalogService({
  db,
  clock,
  caches,
  salesOf,
  learning,
}: {
  db: Db;
  clock: Clock;
  caches: ReadCaches;
  salesOf: SalesOf;
  /** The courses' outlines, for each card's lessons and length. */
  learning: LearningService;
}) {
  // What only staff change, kept between requests; seats left and enrollment windows are worked out per request.
  const activeProducts = caches.cached(async () => {
    const products = await withCurrentPrices(
      db,
      await db('products')
        .where('status', 'active')
        .orderBy([{ column: 'createdAt', order: 'desc' }, { column: 'id' }]),
    );
    const ids = products.map((p) => p.id);
    const [courses, instructors] = await Promise.all([coursesOfProducts(db, ids), instructorsOf(db, ids)]);
    // Every card's lessons and lengths at once: a fixed number of statements however large the catalog.
    const minutes = await learning.lessonMinutesOfCourses([...new Set([...courses.values()].flat().map((c) => c.id))]);
    const outlines = new Map<string, OutlineFacts>(
      products.map((p) => {
        const lessons = (courses.get(p.id) ?? []).flatMap((c) => minutes.get(c.id) ?? []);
        const names = (instructors.get(p.id) ?? []).map((i) => i.name);
        return [p.id, { ...lessonFacts(lessons), instructorNames: names }] as const;
      }),
    );
    // The last page written from these products, and what it was written for: most requests can send it again.
    const written: { inputs: string; json: string } = { inputs: '', json: '' };
    return { products, courses, outlines, written };
  });

  return {
    /** Active products in the home page's order (homeOrder), each with its one current price, as the JSON of `{ data }`. */
    async activeProductsJson(): Promise<string> {
      const { products, courses, outlines, written } = await activeProducts('active');
      const now = clock.now();
      const limited = products.filter((p) => p.quantityAvailable >= 0).map((p) => p.id);
      const sold = limited.length ? await seatsSoldOf(db, limited) : new Map<string, number>();
      const sales = await salesOf(
        db,
        products.map((p) => ({ id: p.id, unitAmount: p.prices?.[0]?.unitAmount ?? null })),
        now,
      );
      const states = products.map((p) => enrollmentState(p, now));
      const inputs = `${states.join()}|${limited.map((id) => sold.get(id) ?? 0).join()}|${salesKey(sales)}`;
      if (written.inputs === inputs) return written.json;
      const shown = products.map((product, i) => {
        const store = storeProduct(product, {
          courses: courses.get(product.id) ?? [],
          sold: sold.get(product.id) ?? 0,
          state: states[i]!,
          sale: sales.get(product.id) ?? null,
          outline: outlines.get(product.id)!,
        });
        const buyable = store.enrollment.state === 'open' && store.price !== null && store.seatsLeft !== 0;
        return { product, store, buyable };
      });
      const data: StoreProduct[] = homeOrder(shown).map((s) => s.store);
      Object.assign(written, { inputs, json: JSON.stringify({ data }) });
      return written.json;
    },
  };
}

export type CatalogService = ReturnType<typeof catalogService>;
