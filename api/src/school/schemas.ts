import { z } from 'zod';
import { isCountryCode } from '../shared/country-codes';
import { currencyProblem } from '../shared/currency';
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
  /** Where the school is established for tax (ISO 3166-1 alpha-2); null: it charges no tax anywhere. */
  taxCountry: string | null;
  /** The school's VAT or tax number, printed on its invoices ('' when none). */
  taxId: string;
  /** Registered for the EU's One-Stop Shop: consumers across the EU pay their own country's rate. */
  taxEuOss: boolean;
  /** Lower-case currency codes whose prices include tax. */
  taxInclusiveCurrencies: string[];
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
    // Tax: each left out keeps its value; whether the tax ID fits the country is the service's to say.
    taxCountry: z
      .string()
      .trim()
      .toUpperCase()
      .transform((c) => (c === '' ? null : c))
      .pipe(z.string().refine(isCountryCode, 'must be a two-letter country code such as DE').nullable())
      .nullable()
      .optional(),
    taxId: line(30).optional(),
    taxEuOss: z.boolean('must be true or false').optional(),
    taxInclusiveCurrencies: z
      .array(
        z
          .string()
          .trim()
          .toLowerCase()
          .refine((c) => /^[a-z]{3}$/.test(c) && !currencyProblem(c), 'must be a currency code such as eur'),
        'must be a list of currency codes',
      )
      .max(50, 'at most 50 currencies')
      .transform((codes) => [...new Set(codes)])
      .optional(),
  })
  .strict();
export type SchoolInput = z.output<typeof SchoolBody>;
