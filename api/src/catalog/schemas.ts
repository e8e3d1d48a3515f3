import type { CatalogStatus, ProductStatus, ProductType } from '../shared/catalog';

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
  /** The site-wide or product sale running now (the best default coupon, as a quote applies it); null when none. */
  sale: StoreSale | null;
  /** The product's picture, uploaded in the console and served resized (api/src/media); null without one. */
  image: StoreImage | null;
  /** The published lessons of the courses it grants. */
  lessonCount: number;
  /** Their length in minutes when every one has a length (shared/course-length.ts); null otherwise. */
  durationMinutes: number | null;
  /** Who teaches it: the names of its owners and contributors (its revenue splits), owners first. */
  instructorNames: string[];
}

/** A sale as a visitor sees it: what one unit costs during it, and when it ends (null: until further notice). */
export interface StoreSale {
  /** 20 for 20 % off. */
  percent: number;
  /** One unit's price during the sale, in cents, as a quote without coupon or regional price makes it. */
  unitAmount: number;
  endsAt: Date | null;
}

/** A picture served resized: `src` at its default size, `srcSet` for the others. */
export interface StoreImage {
  src: string;
  srcSet: string;
  width?: number;
  height?: number;
  /** What it shows, for people who cannot see it; the product's name stands in when absent. */
  alt?: string | null;
}

/** A question and its answer on a product's sales page, both plain text. */
export interface FaqItem {
  question: string;
  answer: string;
}

/** A lesson as the sales page lists it: never its body. Free lessons are open to everyone (docs/domain.md §11). */
export interface CurriculumLesson {
  id: string;
  slug: string | null;
  title: string;
  free: boolean;
  /** Estimated, set in the console; null when not given. */
  durationMinutes: number | null;
}

export interface CurriculumModule {
  id: string;
  title: string;
  /** Lessons placed in the module itself, then its sections'. */
  lessons: CurriculumLesson[];
  sections: { id: string; title: string; lessons: CurriculumLesson[] }[];
  lessonCount: number;
  /** The sum of the lessons' lengths when every one has a length; null otherwise. */
  durationMinutes: number | null;
}

/** A published course the product grants, as its outline stands (published modules and lessons only). */
export interface CurriculumCourse {
  id: string;
  slug: string | null;
  title: string;
  description: string | null;
  modules: CurriculumModule[];
  lessonCount: number;
  freeLessonCount: number;
  /** The sum of the lessons' lengths when every one has a length; null otherwise. */
  durationMinutes: number | null;
}

/** An owner or contributor of the product (its revenue splits, docs/domain.md §9), by the name they show. */
export interface Instructor {
  name: string;
  bio: string | null;
  role: 'owner' | 'contributor';
  avatar: StoreImage | null;
}

/** GET /api/store/products/:slugOrId: everything the sales page shows, in one answer. */
/** One of a membership's current prices: billed each month or year. */
export interface MembershipPrice {
  interval: 'month' | 'year';
  unitAmount: number;
  currency: string;
}

export interface StoreProductPage extends StoreProduct {
  image: StoreImage | null;
  /** The granted courses in the product's own order: the first is the one the product is about. */
  curriculum: CurriculumCourse[];
  /** "What's included": worked out from the data, then the lines staff added. */
  included: string[];
  instructors: Instructor[];
  faq: FaqItem[];
  /** The product's own, or the platform's. */
  refundPolicy: string;
  /** A membership's terms: billed each interval at the price, after any free trial (docs/domain.md §22); else null. */
  membership: {
    interval: 'month' | 'year';
    trialDays: number;
    /** Its current prices, monthly then yearly: a subscriber chooses where there are both. */
    prices: MembershipPrice[];
  } | null;
  /** The course in monthly instalments, beside its one-time price (docs/domain.md §23); else null. */
  paymentPlan: { instalments: number; instalmentAmount: number; currency: string } | null;
}

/** A product as the console sees it (the `products` resource: the row, every column). */
export interface ProductRecord {
  id: string;
  name: string;
  key: string | null;
  slug: string | null;
  description: string | null;
  productType: ProductType;
  status: ProductStatus;
  /** −1 for unlimited, else the seats for sale. */
  quantityAvailable: number;
  enrollmentOpensAt: Date | null;
  enrollmentClosesAt: Date | null;
  /** The uploaded picture's key in the media storage (PUT/DELETE /api/admin/products/:id/image); null without one. */
  imageKey: string | null;
  /** What the picture shows, for people who cannot see it; null: none given (the picture is then decorative). */
  imageAlt: string | null;
  /** Sales page lines added after the ones worked out from the data. */
  included: string[];
  faq: FaqItem[];
  /** Null: the platform's refund policy. */
  refundPolicy: string | null;
  /** The home page's featured order (1 first); null: not featured. */
  featuredRank: number | null;
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
  /** A membership's: billed each month or year (one current price per interval); null for a course's. */
  billingInterval: 'month' | 'year' | null;
  createdAt: Date;
}
