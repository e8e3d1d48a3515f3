import { z } from 'zod';
import { DISPLAY_NAME_LENGTH, NO_CONTROL_CHARACTERS } from '../../shared/display-name';
import type { PublicUser } from '../schemas';

const { min, max } = DISPLAY_NAME_LENGTH;

/** Trimmed, runs of spaces made one. */
const oneSpaced = (name: string) => name.trim().replace(/\s+/g, ' ');

/** A person's name as they type it, spaced once: the display name's length, one line. */
const PERSON_NAME = z
  .string()
  .min(min, `at least ${min} characters`)
  .max(max, `at most ${max} characters`)
  .regex(NO_CONTROL_CHARACTERS, 'must not contain control characters');

/** A person's name from a form (a display name, a certificate's corrected name): trimmed and spaced once, then checked. */
export const PersonName = z.string().transform(oneSpaced).pipe(PERSON_NAME);

/**
 * PUT /api/store/me/name: the name shown on the learner's comments. Trimmed, runs of spaces made one; empty (or
 * null) clears it, so comments show "Learner 4F2A" again (shared/shown-name.ts). No control characters (a line break would break the layout).
 */
export const DisplayNameBody = z
  .object({
    name: z
      .string()
      .transform(oneSpaced)
      .pipe(z.union([z.literal('').transform(() => null), PERSON_NAME]))
      .nullable(),
  })
  .strict();

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────

/** PUT /api/store/me/name: the account as /api/store/me shows it, with the new name. */
export interface DisplayNameAnswer {
  user: PublicUser;
}
