import { z } from 'zod';
import { isCountryCode } from '../../shared/country-codes';
import { TAX_REGIONS } from '../../tax/places';

const Country = z
  .string('must be a two-letter country code such as DE')
  .trim()
  .toUpperCase()
  .refine(isCountryCode, 'must be a two-letter country code such as DE');

/** A US state or Canadian province by its postal code; other countries are taxed as a whole. */
const Region = z
  .string()
  .trim()
  .toUpperCase()
  .transform((r) => (r === '' ? null : r))
  .nullable();

/** Basis points to a tenth (1900 = 19 %, 1497.5 = 14.975 %), at most 50 %. */
const RateBp = z
  .number('must be a number of basis points, such as 1900 for 19 %')
  .min(0, 'cannot be negative')
  .max(5000, 'at most 5000 (50 %)')
  .refine((n) => Math.abs(Math.round(n * 10) - n * 10) < 1e-6, 'at most one decimal (a tenth of a basis point)')
  .transform((n) => Math.round(n * 10) / 10);

const TaxName = z.string().trim().min(1, 'the tax needs a name, such as VAT').max(30, 'at most 30 characters');

/** A region must be one of its country's, and only where tax is set by region. */
function regionFits(place: { country?: string; region?: string | null }, ctx: z.RefinementCtx): void {
  if (!place.region || !place.country) return;
  const regions = TAX_REGIONS[place.country];
  if (!regions)
    ctx.addIssue({ code: 'custom', path: ['region'], message: 'only US states and Canadian provinces are set apart' });
  else if (!regions.has(place.region))
    ctx.addIssue({ code: 'custom', path: ['region'], message: `is not a state or province code of ${place.country}` });
}

export const TaxRateCreate = z
  .object({ country: Country, region: Region.optional(), rateBp: RateBp, name: TaxName })
  .strict()
  .superRefine(regionFits);

/** A rate's place stays as it is (a new place is a new row); its rate and name change. */
export const TaxRateUpdate = z.object({ rateBp: RateBp, name: TaxName }).partial().strict();

export const TaxRegistrationCreate = z
  .object({ country: Country, region: Region.optional() })
  .strict()
  .superRefine(regionFits);
