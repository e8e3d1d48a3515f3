// Factories shared by the demo data and the tests: sensible defaults, every field overridable.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { Price, Product, UpgradableProduct } from '../api/src/catalog/models';
import { Coupon, Purchase } from '../api/src/commerce/models';
import { User } from '../api/src/identity/models';
import type { Role } from '../api/src/shared/roles';
import {
  ContentResource,
  ContentResourceResource,
  ProductContentResource,
  type ResourceFields,
  type ResourceType,
} from '../api/src/learning/models';
import { ProductRevenueSplit } from '../api/src/finance/models';
import { WorkshopSession } from '../api/src/catalog/workshops/models';
import type { z } from 'zod';
import type { QuizFields } from '../api/src/learning/quizzes/quiz.schemas';

type Db = Knex | Knex.Transaction;

const uniqueSuffix = () => randomUUID().slice(0, 8);
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export async function createUser(
  db: Db,
  overrides: Partial<Pick<User, 'name' | 'email' | 'roles' | 'emailVerified'>> = {},
): Promise<User> {
  const suffix = uniqueSuffix();
  return User.query(db).insertAndFetch({
    name: overrides.name ?? `Learner ${suffix}`,
    email: overrides.email ?? `learner-${suffix}@example.com`,
    roles: overrides.roles ?? (['learner'] satisfies Role[]),
    emailVerified: overrides.emailVerified ?? null,
  });
}

export interface ProductInput extends Partial<
  Pick<
    Product,
    | 'name'
    | 'key'
    | 'slug'
    | 'description'
    | 'productType'
    | 'status'
    | 'quantityAvailable'
    | 'enrollmentOpensAt'
    | 'enrollmentClosesAt'
    | 'billingInterval'
    | 'trialDays'
    | 'grantsWholeCatalog'
  >
> {
  unitAmount?: number;
  currency?: string;
  /** A membership's yearly price beside its `unitAmount` billed each `billingInterval` (a month). */
  yearlyAmount?: number;
}

/** A product with its current price (a membership's billed each interval, and a yearly one when asked). */
export async function createProduct(db: Db, input: ProductInput = {}): Promise<Product & { prices: Price[] }> {
  const { unitAmount = 4900, currency = 'usd', yearlyAmount, ...fields } = input;
  const name = fields.name ?? `Course ${uniqueSuffix()}`;
  const product = await Product.query(db).insertAndFetch({ slug: slugify(name), ...fields, name });
  const price = await Price.query(db).insertAndFetch({
    productId: product.id,
    unitAmount,
    currency,
    nickname: name,
    status: 'active',
    billingInterval: fields.billingInterval ?? null,
  });
  const yearly =
    yearlyAmount === undefined
      ? []
      : [
          await Price.query(db).insertAndFetch({
            productId: product.id,
            unitAmount: yearlyAmount,
            currency,
            nickname: `${name} yearly`,
            status: 'active',
            billingInterval: 'year',
          }),
        ];
  return Object.assign(product, { prices: [price, ...yearly] });
}

export async function makeUpgradable(db: Db, from: Product, to: Product): Promise<void> {
  await UpgradableProduct.query(db).insert({ upgradableFromId: from.id, upgradableToId: to.id });
}

export async function createCoupon(
  db: Db,
  overrides: Partial<
    Pick<
      Coupon,
      | 'code'
      | 'expires'
      | 'maxUses'
      | 'default'
      | 'status'
      | 'percentageDiscount'
      | 'restrictedToProductId'
      | 'bulkPurchaseId'
      | 'merchantCouponId'
    >
  > = {},
): Promise<Coupon> {
  return Coupon.query(db).insertAndFetch({
    code: overrides.default ? null : `SAVE${uniqueSuffix().toUpperCase()}`,
    percentageDiscount: 0.1,
    ...overrides,
  });
}

export async function createPurchase(
  db: Db,
  input: { user: User; product: Product } & Partial<
    Pick<Purchase, 'status' | 'totalAmount' | 'country' | 'couponId' | 'createdAt'>
  >,
): Promise<Purchase> {
  const { user, product, ...fields } = input;
  return Purchase.query(db).insertAndFetch({
    userId: user.id,
    productId: product.id,
    status: 'Valid',
    totalAmount: 0,
    ...fields,
  });
}

/** A session of a live workshop: tomorrow at 17:00 UTC for two hours, in Europe/Berlin, unless told otherwise. */
export async function createWorkshopSession(
  db: Db,
  input: { product: Product } & Partial<
    Pick<WorkshopSession, 'title' | 'startsAt' | 'endsAt' | 'timeZone' | 'joinUrl'>
  >,
): Promise<WorkshopSession> {
  const { product, ...fields } = input;
  const startsAt = fields.startsAt ?? new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS + 17 * HOUR_MS);
  return WorkshopSession.query(db).insertAndFetch({
    productId: product.id,
    title: 'Session',
    timeZone: 'Europe/Berlin',
    joinUrl: 'https://meet.example.com/workshop',
    ...fields,
    startsAt,
    endsAt: fields.endsAt ?? new Date(startsAt.getTime() + 2 * HOUR_MS),
  });
}

export async function createRevenueSplit(
  db: Db,
  input: Pick<ProductRevenueSplit, 'productId' | 'type' | 'percent'> & { userId?: string | null },
): Promise<ProductRevenueSplit> {
  return ProductRevenueSplit.query(db).insertAndFetch({ userId: null, ...input });
}

export async function createResource(
  db: Db,
  type: ResourceType,
  fields: ResourceFields & { title: string },
  createdById: string | null = null,
): Promise<ContentResource> {
  return ContentResource.query(db).insertAndFetch({
    type,
    createdById,
    fields: { slug: `${slugify(fields.title)}-${uniqueSuffix()}`, state: 'published', visibility: 'public', ...fields },
  });
}

export async function linkResource(
  db: Db,
  parent: ContentResource,
  child: ContentResource,
  position: number,
  metadata: ContentResourceResource['metadata'] = {},
): Promise<void> {
  await ContentResourceResource.query(db).insert({ resourceOfId: parent.id, resourceId: child.id, position, metadata });
}

export interface CourseOutline {
  title: string;
  description?: string;
  modules: {
    title: string;
    sections: {
      title: string;
      /** `fields`: a lesson's kind and its own fields (api/src/shared/lesson-kinds.ts), e.g. a quiz. */
      lessons: { title: string; body: string; free?: boolean; fields?: ResourceFields }[];
    }[];
  }[];
  /** The course's own settings beside its title (e.g. `quizzesRequired`). */
  fields?: ResourceFields;
}

/** A course → modules → sections → lessons tree, linked in order, optionally granted by products. */
export async function createCourse(
  db: Db,
  outline: CourseOutline,
  options: { createdById?: string | null; products?: Product[] } = {},
): Promise<{ course: ContentResource; lessons: ContentResource[] }> {
  const author = options.createdById ?? null;
  const course = await createResource(
    db,
    'course',
    { ...outline.fields, title: outline.title, description: outline.description },
    author,
  );
  const lessons: ContentResource[] = [];
  for (const [m, moduleOutline] of outline.modules.entries()) {
    const module = await createResource(db, 'module', { title: moduleOutline.title }, author);
    await linkResource(db, course, module, m);
    for (const [s, sectionOutline] of moduleOutline.sections.entries()) {
      const section = await createResource(db, 'section', { title: sectionOutline.title }, author);
      await linkResource(db, module, section, s);
      for (const [l, lessonOutline] of sectionOutline.lessons.entries()) {
        const lesson = await createResource(
          db,
          'lesson',
          { ...lessonOutline.fields, title: lessonOutline.title, body: lessonOutline.body },
          author,
        );
        await linkResource(db, section, lesson, l, lessonOutline.free ? { tier: 'free' } : {});
        lessons.push(lesson);
      }
    }
  }
  for (const [position, product] of (options.products ?? []).entries()) {
    await ProductContentResource.query(db).insert({ productId: product.id, resourceId: course.id, position });
  }
  return { course, lessons };
}

/** A quiz as the console writes it (docs/domain.md §11), before its defaults are filled in. */
export type QuizInput = z.input<typeof QuizFields>;

/**
 * A quiz lesson's fields for `CourseOutline`: its questions, passed at 75 %, as many attempts as a learner likes and
 * the best one kept, unless `settings` say otherwise (a `questions` there replaces them).
 */
export function quizLesson(questions: QuizInput['questions'], settings: Partial<QuizInput> = {}) {
  return { kind: 'quiz', quiz: { passPercent: 75, maxAttempts: null, keep: 'best', questions, ...settings } };
}
