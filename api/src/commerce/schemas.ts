import { z } from 'zod';

const flag = z.enum(['true', 'false', '1', '0']).optional().transform((v) => v === 'true' || v === '1');

export const CheckoutBody = z
  .object({
    productId: z.uuid('must be a product id'),
    quantity: z.number().int('must be a whole number').min(1).max(100).default(1),
    team: z.boolean().default(false),
    coupon: z.string().trim().min(1).max(64).optional(),
    ppp: z.boolean().default(false),
    upgradeFrom: z.uuid('must be a purchase id').optional(),
    email: z.string().trim().max(254).pipe(z.email('must be an email address')).transform((e) => e.toLowerCase()).optional(),
  })
  .strict();

export const QuoteQuery = z.object({
  quantity: z.coerce.number().int('must be a whole number').min(1).max(100).default(1),
  team: flag,
  coupon: z.string().trim().min(1).max(64).optional(),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code')
    .transform((c) => c.toUpperCase())
    .optional(),
  ppp: flag,
  upgradeFrom: z.uuid('must be a purchase id').optional(),
});
