import { z } from 'zod';

/** `/:id` path parameters: a malformed id is a 400 naming the field, never a database error. */
export const IdParam = z.object({ id: z.uuid('must be an id') });

/** For the few tables keyed by a sequence (the audit log). */
export const NumericIdParam = z.object({ id: z.string().regex(/^\d{1,18}$/, 'must be a number') });
