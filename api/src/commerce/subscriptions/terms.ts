import type { Knex } from 'knex';
import type { SubscriptionEvent } from '../../payments/provider';
import { readTaxSetup, taxFrom } from '../../tax/engine';
import type { TaxColumns } from '../../tax/models';
import { postalCodeOf } from '../checkout/billing-place';
import { taxColumnsOf } from '../checkout/tax-columns';
import type { BillingInput } from '../schemas';
import type { MembershipPrice } from './period-price';

/**
 * A subscription's terms as subscribing set them (docs/domain.md §22): its seats, its coupon and where the buyer is
 * billed for tax. They travel in the provider's metadata (every event carries it), so the subscription recorded from
 * whichever event comes first keeps them.
 */
export interface SubscriptionTerms {
  quantity: number;
  couponId: string | null;
  taxCountry: string | null;
  taxRegion: string | null;
  taxVatId: string | null;
  /** The regional discount of its price, in basis points, when it was subscribed at one. */
  pppBp: number | null;
  /** The rest of the billing details given (the tax place above is their country, region and VAT ID), for invoices. */
  billingCompany: string | null;
  billingAddress: string | null;
  billingPostalCode: string | null;
}

/**
 * The terms as provider metadata: strings only, absent parts left out. Besides the tax place, the billing details
 * given (a business's name and address: at most 500 characters, as the provider's metadata takes) for the invoices.
 */
export function termsMetadata(
  price: MembershipPrice,
  quantity: number,
  billing: BillingInput = {},
): Record<string, string> {
  const entries = {
    quantity: String(quantity),
    couponId: price.discount?.couponId,
    taxCountry: price.place.country,
    taxRegion: price.place.region,
    taxVatId: price.place.vatId,
    pppBp: price.pppPercent ? String(Math.round(price.pppPercent * 100)) : null,
    billingCompany: billing.company,
    billingAddress: billing.address,
    billingPostalCode: billing.postalCode && postalCodeOf(price.place.country, billing.postalCode),
  };
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v)) as Record<string, string>;
}

/** The terms back from an event's metadata (a subscription begun before terms were kept: one seat, no tax place). */
export function termsOf(metadata: Record<string, string>): SubscriptionTerms {
  return {
    quantity: Number(metadata.quantity ?? 1) || 1,
    couponId: metadata.couponId ?? null,
    taxCountry: metadata.taxCountry ?? null,
    taxRegion: metadata.taxRegion ?? null,
    taxVatId: metadata.taxVatId ?? null,
    pppBp: Number(metadata.pppBp) || null,
    billingCompany: metadata.billingCompany ?? null,
    billingAddress: metadata.billingAddress ?? null,
    billingPostalCode: metadata.billingPostalCode ?? null,
  };
}

/** A subscription recorded with a coupon redeems it once, however many periods it discounts. */
export async function countRedemption(trx: Knex.Transaction, terms: SubscriptionTerms): Promise<void> {
  if (terms.couponId) await trx('coupons').where({ id: terms.couponId }).increment('usedCount', 1);
}

/**
 * A paid period's tax, as a one-time purchase's is kept (docs/domain.md §18): the school's tax setup now, for the
 * place the buyer was billed at when subscribing. Inside the amount where the currency's prices include tax, else
 * the tax the provider added on top (`taxAmount`), at the rate the setup names. No place kept: no tax.
 */
export async function periodTax(
  trx: Knex.Transaction,
  terms: Pick<SubscriptionTerms, 'taxCountry' | 'taxRegion' | 'taxVatId'>,
  invoice: SubscriptionEvent['invoice'],
): Promise<TaxColumns> {
  const charged = invoice.charge?.amount ?? 0;
  if (!terms.taxCountry || charged === 0) return taxColumnsOf(null);
  const setup = await readTaxSetup(trx);
  const inclusive = setup.inclusiveCurrencies.includes(invoice.currency.toLowerCase());
  const onTop = inclusive ? 0 : (invoice.taxAmount ?? 0);
  const buyer = { country: terms.taxCountry, region: terms.taxRegion, vatId: terms.taxVatId };
  const answer = taxFrom(setup, { currency: invoice.currency, amount: charged - onTop, inclusive, buyer });
  if (!answer) return taxColumnsOf(null);
  // On top, the tax is what the provider billed: the charge holds that much, whatever the rate table says now.
  const { country, region, rate, reverseCharge, name } = answer;
  const amount = inclusive ? answer.amount : onTop;
  return taxColumnsOf({ country, region, rate, amount, inclusive, reverseCharge, name });
}
