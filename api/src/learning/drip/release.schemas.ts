import { z } from 'zod';

/**
 * A link's scheduled release as the console writes it (docs/domain.md §11): days after the learner's start, or a
 * cohort's date; one or the other. Kept in the link's metadata beside its tier.
 */
export const RELEASE_FIELDS = {
  releaseAfterDays: z
    .number('must be a whole number of days')
    .int('must be a whole number of days')
    .min(1, 'at least 1 day (leave it empty to open with the rest)')
    .max(3650, 'at most 3650 days')
    .nullable()
    .optional(),
  releaseOn: z.iso.date('must be a date (YYYY-MM-DD)').nullable().optional(),
};

/** Refuses a link that names both a number of days and a date (on the date's field). */
export function oneRelease<T extends z.ZodType<{ releaseAfterDays?: number | null; releaseOn?: string | null }>>(
  schema: T,
) {
  return schema.refine((m) => m.releaseAfterDays == null || m.releaseOn == null, {
    message: 'choose days after the start or a date, not both',
    path: ['releaseOn'],
  });
}
