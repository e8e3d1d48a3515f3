import { z } from 'zod';

/** The built-in test provider's checkout page and its Pay / Cancel buttons. */
export const TestCheckoutIdentifier = z.object({
  identifier: z.string().regex(/^cs_test_[0-9a-f]{24}$/, 'is not a test checkout'),
});
