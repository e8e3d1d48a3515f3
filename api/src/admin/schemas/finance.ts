import { z } from 'zod';
import { SPLIT_TYPES } from '../../finance/models';
import { Fraction, Id } from './fields';

const PLATFORM_HAS_NO_USER = 'platform splits have no user; owner and contributor splits need one';

export const SplitCreate = z
  .object({ productId: Id, type: z.enum(SPLIT_TYPES), percent: Fraction, userId: Id.nullable().optional() })
  .strict()
  .refine((s) => (s.type === 'platform') === !s.userId, { message: PLATFORM_HAS_NO_USER, path: ['userId'] });

export const SplitUpdate = z
  .object({ type: z.enum(SPLIT_TYPES), percent: Fraction, userId: Id.nullable() })
  .partial()
  .strict();
