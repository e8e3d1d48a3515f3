import type Stripe from 'stripe';
import type { ReadCaches } from '../cache/read-cache';
import { AppError } from '../shared/errors';
import type { TaxSetupReader } from '../tax/engine';
import { isEu, REGIONAL_TAX_COUNTRIES } from '../tax/places';
import type { TaxAnswer, TaxCalculator, TaxQuestion } from '../tax/types';
import { normalizeVatId, vatIdCountry } from '../tax/vat-ids';
import { callStripe } from './stripe-call';

/**
 * Stripe Tax behind the tax calculator (api/src/tax/types.ts): Stripe decides where the school collects (the
 * registrations kept in its dashboard) and at what rate, and its answer is mapped to ours. Stripe's Checkout computes
 * the same from the same customer details (stripe-provider.ts), and the charge records what Stripe computed there.
 */

/** Stripe's reasons for taxing nothing at a place: the school does not collect there, or the sale is not taxed. */
const UNTAXED = new Set([
  'not_collecting',
  'not_subject_to_tax',
  'not_supported',
  'customer_exempt',
  'product_exempt',
  'product_exempt_holiday',
  'zero_rated',
]);

/** A tax's name on the invoice from Stripe's tax_type: VAT, GST, HST, Sales tax … */
const TAX_NAMES: Record<string, string> = {
  vat: 'VAT',
  gst: 'GST',
  hst: 'HST',
  pst: 'PST',
  qst: 'QST',
  rst: 'RST',
  igst: 'IGST',
  jct: 'JCT',
  sales_tax: 'Sales tax',
};

export function taxNameOf(taxType: string | null | undefined): string {
  if (!taxType) return 'Tax';
  const known = TAX_NAMES[taxType];
  if (known) return known;
  const words = taxType.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Millionths of a percent in a rate Stripe writes as a decimal string ("8.875"): exact integer arithmetic. */
const MICRO = 1_000_000;
function microPercent(decimal: string): number {
  const match = /^(\d+)(?:\.(\d{0,6})\d*)?$/.exec(decimal.trim());
  if (!match) throw new Error(`Not a percentage: ${decimal}`);
  return Number(match[1]) * MICRO + Number((match[2] ?? '').padEnd(6, '0'));
}

/**
 * Stripe's percentages (one per jurisdiction: a state's and a city's, say) summed and written in basis points to the
 * tenth, as rates are kept ("19" → 1900, "8.875" → 887.5, "14.975" → 1497.5): exact integer arithmetic on the
 * decimal strings, half up beyond a tenth of a basis point.
 */
export function basisPointsOf(percentages: readonly string[]): number {
  const total = percentages.reduce((sum, p) => sum + microPercent(p), 0);
  const perTenthBp = MICRO / 1000;
  return Math.floor((2 * total + perTenthBp) / (2 * perTenthBp)) / 10;
}

/** One taxed place as Stripe reports it, from a calculation's or a Checkout Session's breakdown. */
export interface StripeTaxLine {
  amount: number;
  country: string | null;
  state: string | null;
  percentage: string;
  taxType: string | null;
  reason: string | null;
}

/**
 * Stripe's breakdown as our answer, or null where Stripe charges no tax. `charged` is what the buyer pays (tax inside
 * it); `buyerCountry` names a reverse-charged sale whose breakdown carries no country, `buyerRegion` a regional sale
 * whose taxed lines name no state.
 */
export function answerOf(
  lines: readonly StripeTaxLine[],
  {
    charged,
    taxAmount,
    inclusive,
    buyerCountry,
    buyerRegion = null,
    calculationId,
  }: {
    charged: number;
    taxAmount: number;
    inclusive: boolean;
    buyerCountry: string | null;
    buyerRegion?: string | null;
    calculationId?: string;
  },
): TaxAnswer | null {
  const taxed = lines.filter(
    (l) => l.reason !== 'reverse_charge' && !UNTAXED.has(l.reason ?? '') && microPercent(l.percentage) > 0,
  );
  const source = { inclusive, source: 'stripe' as const, ...(calculationId && { calculationId }) };
  if (!taxed.length) {
    // A business buyer with a VAT ID of another country: Stripe says reverse_charge, and charges nothing.
    const reversed = lines.find((l) => l.reason === 'reverse_charge');
    const country = reversed?.country ?? buyerCountry;
    if (!reversed || !country) return null;
    const name = taxNameOf(reversed.taxType ?? 'vat');
    return { ...source, country, region: null, rate: 0, amount: 0, reverseCharge: true, name, taxable: charged };
  }
  const country = taxed[0]!.country ?? buyerCountry;
  if (!country) return null;
  return {
    ...source,
    country,
    // A Canadian province's sale lists the federal GST first, which names no province: the line that does names it.
    region: REGIONAL_TAX_COUNTRIES.has(country) ? (taxed.find((l) => l.state)?.state ?? buyerRegion) : null,
    rate: basisPointsOf(taxed.map((l) => l.percentage)),
    amount: taxAmount,
    reverseCharge: false,
    // A Canadian province's GST and PST, say, are one line on the invoice.
    name: [...new Set(taxed.map((l) => taxNameOf(l.taxType)))].join(' + '),
    taxable: charged - taxAmount,
  };
}

/** A VAT ID as Stripe's tax id: eu_vat for the EU's member states, gb_vat for the United Kingdom; none otherwise. */
export function stripeTaxIdOf(vatId: string | null | undefined): { type: 'eu_vat' | 'gb_vat'; value: string } | null {
  if (!vatId) return null;
  const country = vatIdCountry(vatId);
  if (!country) return null;
  const value = normalizeVatId(vatId);
  if (isEu(country)) return { type: 'eu_vat', value };
  return country === 'GB' ? { type: 'gb_vat', value } : null;
}

/**
 * The buyer's place as Stripe reads an address: the country, the state or province, and, in the US and Canada, the
 * ZIP or postal code. Stripe Tax cannot place a US buyer by country and state alone (it needs the ZIP code: docs
 * "Collect customer addresses"); a Canadian one it places by province or postal code.
 */
export function stripeAddressOf(buyer: { country: string; region: string | null; postalCode?: string | null }): {
  country: string;
  state?: string;
  postal_code?: string;
} {
  const postalCode = REGIONAL_TAX_COUNTRIES.has(buyer.country) ? buyer.postalCode : null;
  return {
    country: buyer.country,
    ...(buyer.region && { state: buyer.region }),
    ...(postalCode && { postal_code: postalCode }),
  };
}

/**
 * Refuses, before Stripe is asked, a place Stripe Tax cannot locate (a US buyer without a ZIP code, a Canadian one
 * with neither province nor postal code): the buyer is asked for it, and no calculation is spent.
 */
export function refuseUnplaceable(buyer: { country: string; region: string | null; postalCode?: string | null }) {
  if (buyer.country === 'US' && !buyer.postalCode) throw postalCodeRequired();
  if (buyer.country === 'CA' && !buyer.region && !buyer.postalCode)
    throw new AppError('billing-region-required', 'Choose your province: the tax depends on it.', {
      'billing.region': 'choose your province',
    });
}

const postalCodeRequired = () =>
  new AppError('billing-postal-code-required', 'Enter your ZIP or postal code: the sales tax depends on it.', {
    'billing.postalCode': 'enter your ZIP or postal code',
  });

/** Stripe's word that it cannot place the customer's address (a ZIP code unknown to it, say). */
export const isTaxLocationInvalid = (error: unknown) =>
  (error as { code?: string } | null)?.code === 'customer_tax_location_invalid';

function calculationLines(calculation: Stripe.Tax.Calculation): StripeTaxLine[] {
  return calculation.tax_breakdown.map((b) => ({
    amount: b.amount,
    country: b.tax_rate_details.country,
    state: b.tax_rate_details.state,
    percentage: b.tax_rate_details.percentage_decimal,
    taxType: b.tax_rate_details.tax_type,
    reason: b.taxability_reason,
  }));
}

/**
 * Stripe Tax as the calculator quotes ask. A school that has set up no tax collects none, and Stripe is not asked;
 * otherwise Stripe's calculation is the answer, kept by its id. The same question within the read caches' lifetime
 * is answered once (a product page's visitors, a buyer changing a field and back): a calculation costs a round trip
 * to Stripe, and Stripe limits how many it takes.
 */
export function stripeTax(
  stripe: Stripe,
  setup: Pick<TaxSetupReader, 'read'>,
  caches?: Pick<ReadCaches, 'cached'>,
): TaxCalculator {
  async function ask(question: TaxQuestion): Promise<TaxAnswer | null> {
    const taxId = stripeTaxIdOf(question.buyer.vatId);
    const calculation = await callStripe('compute the tax', async () =>
      stripe.tax.calculations
        .create({
          currency: question.currency.toLowerCase(),
          line_items: [
            {
              amount: question.amount,
              reference: question.reference ?? 'sale',
              tax_behavior: question.inclusive ? 'inclusive' : 'exclusive',
              quantity: 1,
            },
          ],
          customer_details: {
            address: stripeAddressOf(question.buyer),
            address_source: 'billing',
            ...(taxId && { tax_ids: [taxId] }),
          },
        })
        .catch((error: unknown) => {
          // Stripe cannot place the address given: the buyer is asked for their ZIP or postal code, never a 502.
          throw isTaxLocationInvalid(error) ? postalCodeRequired() : error;
        }),
    );
    const taxAmount = calculation.tax_amount_inclusive + calculation.tax_amount_exclusive;
    return answerOf(calculationLines(calculation), {
      charged: question.inclusive ? question.amount : question.amount + calculation.tax_amount_exclusive,
      taxAmount,
      inclusive: question.inclusive,
      buyerCountry: question.buyer.country,
      buyerRegion: question.buyer.region,
      calculationId: calculation.id ?? undefined,
    });
  }
  // A question as the cache's key, and back: the fields that decide the answer, in one order.
  const keyOf = ({ currency, amount, inclusive, buyer, reference }: TaxQuestion) =>
    JSON.stringify([
      currency,
      amount,
      inclusive,
      buyer.country,
      buyer.region,
      buyer.vatId,
      buyer.postalCode ?? null,
      reference ?? null,
    ]);
  const questionOf = (key: string): TaxQuestion => {
    const [currency, amount, inclusive, country, region, vatId, postalCode, reference] = JSON.parse(key);
    return {
      currency,
      amount,
      inclusive,
      buyer: { country, region, vatId, postalCode },
      reference: reference ?? undefined,
    };
  };
  // Who asks for a question now, read by the cache's load as it starts (synchronously, before its first await): only a
  // question the cache does not answer runs `beforeAsking`, and a refusal is not kept.
  const asking = new Map<string, (() => Promise<void>) | undefined>();
  const load = async (key: string) => {
    const beforeAsking = asking.get(key);
    await beforeAsking?.();
    return ask(questionOf(key));
  };
  const answers = caches?.cached(load, { max: 1000 });
  return {
    async calculate(question, options) {
      if (!(options?.setup ?? (await setup.read())).seller.country) return null;
      refuseUnplaceable(question.buyer);
      const key = keyOf(question);
      asking.set(key, options?.beforeAsking);
      try {
        return await (answers ?? load)(key);
      } finally {
        asking.delete(key);
      }
    },
  };
}
