import { z } from 'zod';
import { RECIPIENT_TYPES } from '../../shared/finance';
import { Fraction, Id } from './fields';

const PLATFORM_HAS_NO_USER = 'platform splits have no user; owner and contributor splits need one';

export const SplitCreate = z
  .object({ productId: Id, type: z.enum(RECIPIENT_TYPES), percent: Fraction, userId: Id.nullable().optional() })
  .strict()
  .refine((s) => (s.type === 'platform') === !s.userId, { message: PLATFORM_HAS_NO_USER, path: ['userId'] });

export const SplitUpdate = z
  .object({ type: z.enum(RECIPIENT_TYPES), percent: Fraction, userId: Id.nullable() })
  .partial()
  .strict();

/** A recipient's Stripe Connect account, where payout runs send their transfers. */
const StripeAccountId = z
  .string()
  .trim()
  .regex(/^acct_[A-Za-z0-9]+$/, 'must be a Stripe account id (acct_…)');

export const PayoutRecipientCreate = z.object({ userId: Id, stripeAccountId: StripeAccountId }).strict();

export const PayoutRecipientUpdate = z.object({ stripeAccountId: StripeAccountId }).partial().strict();
