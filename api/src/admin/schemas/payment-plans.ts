import { z } from 'zod';
import { Cents, Currency, Id } from './fields';

// A new plan becomes the product's offer; amounts never change in place (the subscriptions paying it name it).
export const PaymentPlanCreate = z
  .object({
    productId: Id,
    instalments: z.number().int('must be a whole number').min(2, 'must be 2 or more').max(24, 'must be 24 or fewer'),
    instalmentAmount: Cents.refine((n) => n > 0, 'must be more than 0'),
    currency: Currency.default('usd'),
  })
  .strict();
// Staff stop offering a plan by archiving it; those paying it go on paying.
export const PaymentPlanUpdate = z
  .object({ status: z.literal('archived') })
  .partial()
  .strict();
