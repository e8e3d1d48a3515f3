import { z } from 'zod';
import { DISPLAY_NAME_LENGTH } from '../../shared/display-name';
import type { PublicUser } from '../schemas';

const { min, max } = DISPLAY_NAME_LENGTH;

/**
 * PUT /api/store/me/name: the name shown on the learner's comments. Trimmed, runs of spaces made one; empty (or
 * null) clears it, so comments show "Learner 4F2A" again (shared/shown-name.ts). No control characters (a line break would break the layout).
 */
export const DisplayNameBody = z
  .object({
    name: z
      .string()
      .transform((name) => name.trim().replace(/\s+/g, ' '))
      .pipe(
        z.union([
          z.literal('').transform(() => null),
          z
            .string()
            .min(min, `at least ${min} characters`)
            .max(max, `at most ${max} characters`)
            // eslint-disable-next-line no-control-regex
            .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters'),
        ]),
      )
      .nullable(),
  })
  .strict();

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────

/** PUT /api/store/me/name: the account as /api/store/me shows it, with the new name. */
export interface DisplayNameAnswer {
  user: PublicUser;
}
