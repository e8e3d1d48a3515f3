import type { ReadCaches } from '../cache/read-cache';
import type { Clock } from '../clock';
import { seatsSoldOf } from './seats-sold';
import { GRANTING_STATUSES } from '../shared/purchase-status';
import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import type { LearningService } from '../learning/learning';
import { curriculaOf, instructorsOf, outlineFacts } from './course-outline';
import { faqOf } from './faq';
import type { Price, Product } from './models';
import type { SalesOf } from './sales';
import type { MembershipPrice, StoreProductPage } from './schemas';
import { coursesOfProducts, enrollmentState, storeProduct, withCurrentPrices } from './service';
import { isUuid } from '../shared/uuid';
import { activePlanOf } from './payment-plan-offer';
import { formatMinutes, plural } from '../shared/words';

/**
 * What a product says about refunds when staff have not written its own (docs/domain.md §6.4: refunds are made by
 * staff).
 */
export const PLATFORM_REFUND_POLICY =
  'If the course is not right for you, reply to your receipt and ask for a refund: we refund what you paid, in full ' +
  'or in part, the way you paid. A full refund ends your access to the course, and a team purchase’s seats with it.';

interface Deps {
  db: Db;
  clock: Clock;
  caches: ReadCaches;
  learning: LearningService;
  /** Days a buyer may give their purchase to someone else (docs/domain.md §8). */
  transferWindowDays: number;
  salesOf: SalesOf;
  /** The team discount's tiers, lowest first (commerce's pricing): the page names the first. */
  teamTiers: readonly { min: number; bp: number }[];
}

/** A membership's current prices, monthly then yearly, as its page offers them. */
const membershipPrices = (prices: Price[]): MembershipPrice[] =>
  prices
    .filter((price) => price.billingInterval)
    .map((price) => ({ interval: price.billingInterval!, unitAmount: price.unitAmount, currency: price.currency }))
    .sort((a, b) => Number(a.interval === 'year') - Number(b.interval === 'year'));

/**
 * The sales page's answer: the product as the catalog shows it, its curriculum, what is included, its instructors,
 * FAQ and refund policy. What only staff change is cached (see ReadCaches); seats, enrollment and the sale are
 * worked out per request.
 */
export function productPages({ db, clock, caches, learning, transferWindowDays, salesOf, teamTiers }: Deps) {
  const pageOf = caches.cached(async (slugOrId: string) => {
    const bySlug: Product | undefined = await db('products').where({ status: 'active', slug: slugOrId }).first();
    const product: Product | undefined =
      bySlug ?? (isUuid(slugOrId) ? await db('products').where({ status: 'active', id: slugOrId }).first() : undefined);
    if (!product) return null;
    await withCurrentPrices(db, [product]);
    const courses = (await coursesOfProducts(db, [product.id])).get(product.id) ?? [];
    const [curriculum, instructors, faq] = await Promise.all([
      curriculaOf(learning, courses),
      instructorsOf(db, [product.id]),
      faqOf(db, product.id),
    ]);
    return { product, courses, curriculum, instructors: instructors.get(product.id) ?? [], faq };
  });

  /** What the page works out from the data, before the lines staff added. */
  function derivedIncluded(page: Pick<StoreProductPage, 'curriculum' | 'productType' | 'seatsLeft'>, sessions: number) {
    const lines: string[] = [];
    const { curriculum } = page;
    const lessons = curriculum.reduce((sum, c) => sum + c.lessonCount, 0);
    const modules = curriculum.reduce((sum, c) => sum + c.modules.length, 0);
    const { durationMinutes: minutes } = outlineFacts(curriculum);
    const free = curriculum.reduce((sum, c) => sum + c.freeLessonCount, 0);
    if (curriculum.length > 1) lines.push(`${plural(curriculum.length, 'course')}, ${plural(lessons, 'lesson')}`);
    else if (lessons > 0) lines.push(`${plural(lessons, 'lesson')} in ${plural(modules, 'module')}`);
    if (minutes) lines.push(`About ${formatMinutes(minutes)} of lessons`);
    if (page.productType === 'live' && sessions > 0)
      lines.push(`${plural(sessions, 'live session')}, with a calendar invite`);
    if (page.productType === 'self-paced' && lessons > 0) lines.push('Study at your own pace and track your progress');
    if (free > 0) lines.push(`${plural(free, 'free preview lesson')} to try before you buy`);
    const firstTier = teamTiers[0]!;
    if (page.seatsLeft === null || page.seatsLeft >= firstTier.min) {
      lines.push(`Team seats: ${firstTier.bp / 100} % off from ${firstTier.min} seats`);
    }
    if (transferWindowDays > 0) {
      lines.push(`Give it to someone else within ${plural(transferWindowDays, 'day')} of buying`);
    }
    return lines;
  }

  return {
    /** An active product's sales page by slug or id; not-found for unknown and archived products. */
    async productPage(slugOrId: string): Promise<StoreProductPage> {
      const cached = await pageOf(slugOrId);
      if (!cached) throw new AppError('product-not-found', 'This course does not exist or is no longer on sale.');
      const { product, courses, curriculum, instructors, faq } = cached;
      const now = clock.now();
      const limited = product.quantityAvailable >= 0;
      const [sold, sales, sessions, plan] = await Promise.all([
        limited ? seatsSoldOf(db, [product.id]) : new Map<string, number>(),
        salesOf(db, [{ id: product.id, unitAmount: product.prices?.[0]?.unitAmount ?? null }], now),
        product.productType === 'live'
          ? db('workshopSessions').where({ productId: product.id }).where('endsAt', '>', now).count({ n: '*' })
          : [{ n: 0 }],
        activePlanOf(db, product.id),
      ]);
      const base = storeProduct(product, {
        courses,
        sold: sold.get(product.id) ?? 0,
        state: enrollmentState(product, now),
        sale: sales.get(product.id) ?? null,
        outline: { ...outlineFacts(curriculum), instructorNames: instructors.map((i) => i.name) },
      });
      return {
        ...base,
        curriculum,
        included: [...derivedIncluded({ ...base, curriculum }, Number(sessions[0]?.n ?? 0)), ...product.included],
        instructors,
        faq,
        refundPolicy: product.refundPolicy ?? PLATFORM_REFUND_POLICY,
        membership:
          product.productType === 'membership' && product.billingInterval
            ? {
                interval: product.billingInterval,
                trialDays: product.trialDays,
                prices: membershipPrices(product.prices ?? []),
              }
            : null,
        paymentPlan: plan && {
          instalments: plan.instalments,
          instalmentAmount: plan.instalmentAmount,
          currency: plan.currency,
        },
      };
    },

    /** The products a learner holds themselves (bought, or a team seat taken), still granting access. */
    async ownedProductIds(userId: string): Promise<string[]> {
      const rows: { productId: string }[] = await db('purchases')
        .where({ userId })
        .whereNull('bulkCouponId')
        .whereIn('status', GRANTING_STATUSES)
        .distinct('productId');
      return rows.map((r) => r.productId);
    },
  };
}

export type ProductPages = ReturnType<typeof productPages>;
