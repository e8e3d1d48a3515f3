import { z } from 'zod';
import { NO_CONTROL_CHARACTERS } from '../shared/display-name';

const RICH_TEXT_MAX = 200_000;

/** A school's logo as the apps show it: one width for the header, the original's size for layout. */
export interface SchoolLogo {
  key: string;
  /** The logo at 320 px wide (or the original's width, if smaller). */
  src: string;
  width: number;
  height: number;
}

/** GET /api/store/school and /api/admin/school: the school as its pages, emails and certificates present it. */
export interface School {
  name: string;
  legalName: string;
  /** The postal address, one line per line. */
  address: string;
  supportEmail: string | null;
  logo: SchoolLogo | null;
  /** `#rrggbb`, lower case. */
  accentColor: string;
  /** Sanitised rich text (the lesson allow-list). */
  termsHtml: string;
  privacyHtml: string;
  updatedAt: string;
}

const line = (max: number) =>
  z
    .string()
    .transform((s) => s.trim().replace(/\s+/g, ' '))
    .pipe(z.string().max(max, `at most ${max} characters`).regex(NO_CONTROL_CHARACTERS, 'must be one line'));

/**
 * PUT /api/admin/school: every field but the logo (which has its own upload). An empty support email clears it;
 * the name is what titles, emails and certificates carry, so it may not be empty.
 */
export const SchoolBody = z
  .object({
    name: line(90).pipe(z.string().min(1, 'the school needs a name')),
    legalName: line(200),
    address: z
      .string()
      .max(500, 'at most 500 characters')
      .transform((s) =>
        s
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter(Boolean)
          .join('\n'),
      ),
    supportEmail: z
      .string()
      .trim()
      .transform((s) => (s === '' ? null : s.toLowerCase()))
      .pipe(z.email('must be an email address').nullable())
      .nullable(),
    accentColor: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^#[0-9a-f]{6}$/, 'must be a colour like #1d4ed8'),
    termsHtml: z.string().max(RICH_TEXT_MAX, `at most ${RICH_TEXT_MAX} characters`),
    privacyHtml: z.string().max(RICH_TEXT_MAX, `at most ${RICH_TEXT_MAX} characters`),
  })
  .strict();
export type SchoolInput = z.output<typeof SchoolBody>;
