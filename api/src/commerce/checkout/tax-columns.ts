import type { TaxColumns } from '../../tax/models';
import type { QuoteTax } from '../schemas';

/** A sale's tax as the columns checkouts and charges keep it in; no tax: no place, amount 0. */
export function taxColumnsOf(tax: QuoteTax | null): TaxColumns {
  if (!tax)
    return {
      taxCountry: null,
      taxRegion: null,
      taxRateBp: null,
      taxName: null,
      taxInclusive: null,
      taxReverseCharge: false,
      taxAmount: 0,
    };
  return {
    taxCountry: tax.country,
    taxRegion: tax.region,
    taxRateBp: tax.rate,
    taxName: tax.name,
    taxInclusive: tax.inclusive,
    taxReverseCharge: tax.reverseCharge,
    taxAmount: tax.amount,
  };
}

/** The tax a checkout quoted, back from its columns (null when none applied). */
export function quotedTaxOf(row: TaxColumns): QuoteTax | null {
  if (row.taxCountry === null) return null;
  return {
    country: row.taxCountry,
    region: row.taxRegion,
    rate: row.taxRateBp ?? 0,
    amount: row.taxAmount,
    inclusive: row.taxInclusive ?? true,
    reverseCharge: row.taxReverseCharge,
    name: row.taxName ?? '',
  };
}
