import { z } from 'zod';
import { canonicalTimeZone } from '../../shared/time-zone';

/** A time zone field: trimmed, known to this runtime, stored in its canonical spelling. */
export const TimeZoneName = z
  .string()
  .trim()
  .max(64)
  .transform((name, ctx) => {
    const canonical = canonicalTimeZone(name);
    if (!canonical) ctx.addIssue({ code: 'custom', message: 'must be a time zone name such as Europe/Berlin' });
    return canonical ?? name;
  });

/**
 * PUT /api/store/me/time-zone: the zone dates in emails to this person are written in. `onlyIfUnset`: keep a zone
 * chosen before (the storefront offers the device's zone after each sign-in).
 */
export const TimeZoneBody = z.object({ timeZone: TimeZoneName, onlyIfUnset: z.boolean().default(false) }).strict();

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────

/** PUT /api/store/me/time-zone: the zone now stored (with `onlyIfUnset`, possibly one chosen before). */
export interface TimeZoneAnswer {
  timeZone: string;
}
