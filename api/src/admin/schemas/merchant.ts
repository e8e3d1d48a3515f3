import { z } from 'zod';

/** The console only switches a provider's record on or off; the rest mirrors the provider. */
export const MerchantStatusUpdate = z
  .object({ status: z.enum(['active', 'inactive']) })
  .partial()
  .strict();
