import { z } from 'zod';
import { PRODUCT_STATUSES, PRODUCT_TYPES } from '../../shared/catalog';
import { Cents, Currency, DateTime, Id, OptionalText, Slug } from './fields';

/** The sales page's own words, all plain text (rendered as text, never as HTML). */
const Line = z.string().trim().min(1, 'is required').max(200, 'at most 200 characters');
const salesPageFields = {
  included: z.array(Line).max(12, 'at most 12 lines').optional(),
  // Empty: the platform's policy.
  refundPolicy: z
    .string()
    .trim()
    .max(4000, 'at most 4000 characters')
    .transform((text) => text || null)
    .nullable()
    .optional(),
};
/** Question/answer pairs, in order; written with the product (its product_faqs rows are replaced). */
const Faq = z
  .array(
    z
      .object({ question: Line, answer: z.string().trim().min(1, 'is required').max(2000, 'at most 2000 characters') })
      .strict(),
  )
  .max(30, 'at most 30 questions');

/** What the console may write on a product, price, upgrade path and product's content. */
const productFields = {
  name: z.string().trim().min(2, 'at least 2 characters').max(90, 'at most 90 characters'),
  key: Slug.max(64).nullable().optional(),
  slug: Slug.max(90).nullable().optional(),
  description: OptionalText(2000),
  productType: z.enum(PRODUCT_TYPES),
  status: z.enum(PRODUCT_STATUSES),
  quantityAvailable: z.number().int().min(-1, '−1 (unlimited) or a number of seats').max(1_000_000),
  enrollmentOpensAt: DateTime.nullable().optional(),
  enrollmentClosesAt: DateTime.nullable().optional(),
  // The home page's featured order: 1 first; null (empty) for not featured.
  featuredRank: z.number().int('a whole number').min(1, 'at least 1').max(1000, 'at most 1000').nullable().optional(),
  ...salesPageFields,
};

const windowInOrder = (p: { enrollmentOpensAt?: Date | null; enrollmentClosesAt?: Date | null }) =>
  !p.enrollmentOpensAt || !p.enrollmentClosesAt || p.enrollmentOpensAt < p.enrollmentClosesAt;

export const ProductCreate = z
  .object({
    ...productFields,
    productType: productFields.productType.default('self-paced'),
    // A new product is a draft until staff publish it (not on sale, not on the storefront meanwhile).
    status: productFields.status.default('draft'),
    quantityAvailable: productFields.quantityAvailable.default(-1),
    // The first price, created with the product.
    unitAmount: Cents.optional(),
    currency: Currency.default('usd'),
  })
  .strict()
  .refine(windowInOrder, { message: 'must be after the opening', path: ['enrollmentClosesAt'] });

/** The words that describe the product's image to people who cannot see it (the image itself is uploaded apart). */
const ImageAlt = z
  .string()
  .trim()
  .max(300, 'at most 300 characters')
  .transform((text) => text || null)
  .nullable();

export const ProductUpdate = z
  .object({ ...productFields, faq: Faq, imageAlt: ImageAlt })
  .partial()
  .strict();

// A new price becomes the current one; amounts never change in place (history keeps what was charged).
export const PriceCreate = z
  .object({
    productId: Id,
    unitAmount: Cents,
    currency: Currency.default('usd'),
    nickname: OptionalText(120),
    /** A membership's: billed each month or year (its product's interval when not given). */
    billingInterval: z.enum(['month', 'year']).optional(),
  })
  .strict();
export const PriceUpdate = z
  .object({ nickname: OptionalText(120) })
  .partial()
  .strict();

export const UpgradableProductCreate = z
  .object({ upgradableFromId: Id, upgradableToId: Id })
  .strict()
  .refine((v) => v.upgradableFromId !== v.upgradableToId, {
    message: 'must differ from the product upgraded from',
    path: ['upgradableToId'],
  });

export const ProductContentCreate = z
  .object({ productId: Id, resourceId: Id, position: z.number().default(0) })
  .strict();
export const ProductContentUpdate = z.object({ position: z.number() }).partial().strict();
