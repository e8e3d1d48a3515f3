import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answerOf,
  basisPointsOf,
  stripeAddressOf,
  stripeTaxIdOf,
  taxNameOf,
  type StripeTaxLine,
} from '../../api/src/payments/stripe-tax';

const line = (overrides: Partial<StripeTaxLine>): StripeTaxLine => ({
  amount: 0,
  country: 'DE',
  state: null,
  percentage: '19',
  taxType: 'vat',
  reason: 'standard_rated',
  ...overrides,
});

describe("Stripe Tax's answers in our terms", () => {
  it("writes Stripe's decimal percentages in basis points to the tenth, exactly, summing jurisdictions", () => {
    expect(basisPointsOf(['19'])).toBe(1900);
    expect(basisPointsOf(['7.25'])).toBe(725);
    expect(basisPointsOf(['8.875'])).toBe(887.5);
    expect(basisPointsOf(['5', '9.975'])).toBe(1497.5);
    expect(basisPointsOf(['6.5', '3.85'])).toBe(1035);
    expect(basisPointsOf(['4', '4.5', '0.375'])).toBe(887.5);
    // Beyond a tenth of a basis point, half up; Checkout's numbers fixed to six places read the same.
    expect(basisPointsOf(['0.0015'])).toBe(0.2);
    expect(basisPointsOf(['0.00149'])).toBe(0.1);
    expect(basisPointsOf(['0.00049'])).toBe(0);
    expect(basisPointsOf([(8.875).toFixed(6)])).toBe(887.5);
    // Any rate of up to three decimals (a tenth of a basis point) is exact, alone or summed: no float error.
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 30_000 }), { minLength: 1, maxLength: 4 }), (thousandths) => {
        const written = thousandths.map((t) => `${Math.floor(t / 1000)}.${String(t % 1000).padStart(3, '0')}`);
        const total = thousandths.reduce((a, b) => a + b, 0);
        expect(basisPointsOf(written)).toBe(total / 10);
      }),
    );
  });

  it("names the tax as the invoice says it: Stripe's tax types, a province's two as one", () => {
    expect(['vat', 'gst', 'hst', 'sales_tax', 'service_tax', null].map(taxNameOf)).toEqual([
      'VAT',
      'GST',
      'HST',
      'Sales tax',
      'Service tax',
      'Tax',
    ]);
    const bc = answerOf(
      [
        line({ country: 'CA', state: null, percentage: '5', taxType: 'gst', amount: 500 }),
        line({ country: 'CA', state: 'BC', percentage: '7', taxType: 'pst', amount: 700 }),
      ],
      { charged: 11200, taxAmount: 1200, inclusive: false, buyerCountry: 'CA' },
    );
    expect(bc).toMatchObject({ country: 'CA', rate: 1200, name: 'GST + PST', amount: 1200, taxable: 10000 });
  });

  it("keeps a Canadian province's sale in its province though the federal GST line, listed first, names none", () => {
    const gst = line({ country: 'CA', state: null, percentage: '5', taxType: 'gst', amount: 245 });
    const qst = line({ country: 'CA', state: 'QC', percentage: '9.975', taxType: 'qst', amount: 489 });
    const quebec = answerOf([gst, qst], { charged: 5634, taxAmount: 734, inclusive: false, buyerCountry: 'CA' });
    expect(quebec).toMatchObject({ country: 'CA', region: 'QC', rate: 1497.5, name: 'GST + QST' });
    // Alberta charges the GST alone: the buyer's province names the sale.
    const alberta = { charged: 5145, taxAmount: 245, inclusive: false, buyerCountry: 'CA', buyerRegion: 'AB' };
    expect(answerOf([gst], alberta)).toMatchObject({ region: 'AB', rate: 500, name: 'GST' });
  });

  it('gives Stripe the ZIP or postal code where it places the buyer by it (US, Canada), and the state', () => {
    expect(stripeAddressOf({ country: 'US', region: 'WA', postalCode: '98101' })).toEqual({
      country: 'US',
      state: 'WA',
      postal_code: '98101',
    });
    expect(stripeAddressOf({ country: 'CA', region: 'QC', postalCode: 'H2X 1Y4' })).toMatchObject({
      postal_code: 'H2X 1Y4',
    });
    expect(stripeAddressOf({ country: 'DE', region: null, postalCode: '10115' })).toEqual({ country: 'DE' });
  });

  it('answers the place, rate and amount of a taxed sale, its region only where tax is per state or province', () => {
    const seattle = answerOf(
      [
        line({ country: 'US', state: 'WA', percentage: '6.5', taxType: 'sales_tax' }),
        line({ country: 'US', state: 'WA', percentage: '3.85', taxType: 'sales_tax' }),
      ],
      { charged: 5407, taxAmount: 507, inclusive: false, buyerCountry: 'US', calculationId: 'taxcalc_1' },
    );
    expect(seattle).toEqual({
      country: 'US',
      region: 'WA',
      rate: 1035,
      amount: 507,
      inclusive: false,
      reverseCharge: false,
      name: 'Sales tax',
      taxable: 4900,
      source: 'stripe',
      calculationId: 'taxcalc_1',
    });
    const germany = answerOf([line({ state: 'BE' })], {
      charged: 11900,
      taxAmount: 1900,
      inclusive: true,
      buyerCountry: 'DE',
    });
    expect(germany).toMatchObject({ country: 'DE', region: null, rate: 1900, taxable: 10000, inclusive: true });
  });

  it('answers a reverse charge with rate and amount 0, and nothing where Stripe collects nothing', () => {
    const reversed = answerOf([line({ country: 'FR', percentage: '0.0', reason: 'reverse_charge' })], {
      charged: 11900,
      taxAmount: 0,
      inclusive: true,
      buyerCountry: 'FR',
    });
    expect(reversed).toMatchObject({ country: 'FR', rate: 0, amount: 0, reverseCharge: true, name: 'VAT' });
    expect(reversed?.taxable).toBe(11900);
    for (const reason of ['not_collecting', 'not_subject_to_tax', 'zero_rated', 'product_exempt', 'customer_exempt'])
      expect(
        answerOf([line({ country: 'US', state: 'OR', percentage: '0.0', reason })], {
          charged: 4900,
          taxAmount: 0,
          inclusive: false,
          buyerCountry: 'US',
        }),
      ).toBeNull();
    expect(answerOf([], { charged: 4900, taxAmount: 0, inclusive: false, buyerCountry: 'JP' })).toBeNull();
  });

  it("gives Stripe a VAT ID as its tax ID type: eu_vat in the EU (Greece's EL too), gb_vat in the UK", () => {
    expect(stripeTaxIdOf('fr 40 303265045')).toEqual({ type: 'eu_vat', value: 'FR40303265045' });
    expect(stripeTaxIdOf('EL123456789')).toEqual({ type: 'eu_vat', value: 'EL123456789' });
    expect(stripeTaxIdOf('GB123456789')).toEqual({ type: 'gb_vat', value: 'GB123456789' });
    expect(stripeTaxIdOf('not a number')).toBeNull();
    expect(stripeTaxIdOf(null)).toBeNull();
  });
});
