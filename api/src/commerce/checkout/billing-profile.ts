import type { Knex } from 'knex';
import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import { vatIdProblem } from '../../tax/vat-ids';
import type { BillingInput, BillingProfileAnswer } from '../schemas';
import { BILLING_MESSAGES, billingPlace, postalCodeFormatMessage } from './billing-place';

/** The remembered details of someone who never gave any. */
const NONE: BillingProfileAnswer = {
  company: '',
  address: '',
  country: null,
  region: null,
  postalCode: '',
  vatId: '',
};

/**
 * Refuses a VAT ID whose format does not fit the billing country (nothing is written): `field` names the form's
 * field, `vatId` on its own or `billing.vatId` inside a checkout.
 */
export function refuseUnfitVatId(vatId: string | null | undefined, country: string | null, field: string): void {
  if (!vatId) return;
  const problem = vatIdProblem(vatId, country ?? '');
  if (problem) throw new AppError('vat-id-invalid', BILLING_MESSAGES[problem], { [field]: BILLING_MESSAGES[problem] });
}

/**
 * Refuses a region that is not one of the billing country's states or provinces, and a postal code not written as the
 * country writes them (a ZIP, a Canadian A1A 1A1), each on its field: `prefix` is '' or 'billing.'.
 */
export function refuseUnknownPlace(place: { country: string | null; problem: string | null }, prefix: string): void {
  if (place.problem === 'region-unknown')
    throw new AppError('billing-region-invalid', BILLING_MESSAGES['region-unknown'], {
      [`${prefix}region`]: 'is not a state or province of the billing country',
    });
  if (place.problem === 'postal-code-format') {
    const message = postalCodeFormatMessage(place.country);
    throw new AppError('billing-postal-code-required', message, { [`${prefix}postalCode`]: message });
  }
}

/** Remembers a buyer's billing details (their last checkout's, or as they corrected them): one row per buyer. */
export async function rememberBilling(
  trx: Knex | Knex.Transaction,
  userId: string,
  details: BillingProfileAnswer,
): Promise<void> {
  const row = {
    company: details.company,
    address: details.address,
    country: details.country,
    region: details.region,
    postalCode: details.postalCode,
    vatId: details.vatId,
  };
  await trx('billingProfiles')
    .insert({ userId, ...row })
    .onConflict('userId')
    .merge(row);
}

/** The signed-in buyer's remembered billing details, which the buy box and an invoice's correction start from. */
export function billingProfiles({ db }: { db: Db }) {
  return {
    async get(userId: string): Promise<BillingProfileAnswer> {
      const row = await db('billingProfiles')
        .where({ userId })
        .first('company', 'address', 'country', 'region', 'postalCode', 'vatId');
      return row ?? NONE;
    },
    async put(userId: string, input: BillingInput): Promise<BillingProfileAnswer> {
      refuseUnfitVatId(input.vatId, input.country ?? null, 'vatId');
      // Remembered as given: no detected country or region fills in what the buyer left empty.
      const place = input.country ? billingPlace(input, { country: input.country, region: null }) : null;
      if (place) refuseUnknownPlace(place, '');
      const details: BillingProfileAnswer = {
        company: input.company ?? '',
        address: input.address ?? '',
        country: input.country ?? null,
        region: place?.region ?? null,
        postalCode: place?.postalCode ?? input.postalCode ?? '',
        vatId: input.vatId ?? '',
      };
      await rememberBilling(db, userId, details);
      return details;
    },
  };
}

export type BillingProfiles = ReturnType<typeof billingProfiles>;
