import { z } from 'zod';
import { ACTIVE_STATUSES } from '../../shared/active-status';

/** The console only switches a provider's record on or off; the rest mirrors the provider. */
export const MerchantStatusUpdate = z
  .object({ status: z.enum(ACTIVE_STATUSES) })
  .partial()
  .strict();
