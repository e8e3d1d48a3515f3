import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { taxInside, taxOnTop, taxRefunded, taxShare } from '../../api/src/tax/amounts';
import { taxFrom, type TaxSetup } from '../../api/src/tax/engine';
import { taxPlace, type SellerRegistrations } from '../../api/src/tax/rules';
import type { BuyerTaxPlace } from '../../api/src/tax/types';
import { chargedTotal } from '../../api/src/tax/types';
import { normalizeVatId, vatIdCountry, vatIdProblem } from '../../api/src/tax/vat-ids';

/** A school established in Germany, on the EU One-Stop Shop, registered also in the UK and in Washington state. */
const GERMAN_SCHOOL: SellerRegistrations = {
  country: 'DE',
  euOss: true,
  registrations: [
    { country: 'GB', region: null },
    { country: 'US', region: 'WA' },
  ],
};

const RATES: TaxSetup['rates'] = [
  { country: 'DE', region: null, rateBp: 1900, name: 'VAT' },
  { country: 'FR', region: null, rateBp: 2000, name: 'VAT' },
  { country: 'GB', region: null, rateBp: 2000, name: 'VAT' },
  { country: 'JP', region: null, rateBp: 1000, name: 'JCT' },
  { country: 'US', region: 'WA', rateBp: 650, name: 'Sales tax' },
  { country: 'US', region: 'CA', rateBp: 725, name: 'Sales tax' },
  { country: 'CA', region: null, rateBp: 500, name: 'GST' },
  { country: 'CA', region: 'ON', rateBp: 1300, name: 'HST' },
];

const setupOf = (seller: SellerRegistrations): TaxSetup => ({
  seller,
  taxId: 'DE123456789',
  inclusiveCurrencies: ['eur'],
  rates: RATES,
});

const buyer = (country: string, region: string | null = null, vatId: string | null = null): BuyerTaxPlace => ({
  country,
  region,
  vatId,
});

const FR_VAT_ID = 'FR40303265045';
const DE_VAT_ID = 'DE123456789';

describe('where a digital service is taxed', () => {
  it.each([
    ['a German consumer: German VAT', buyer('DE'), { kind: 'charge', country: 'DE', region: null }],
    ['a French consumer: French VAT through the OSS', buyer('FR'), { kind: 'charge', country: 'FR', region: null }],
    [
      'a French business with a French VAT ID: reverse charge',
      buyer('FR', null, FR_VAT_ID),
      { kind: 'reverse-charge', country: 'FR' },
    ],
    [
      'a German business with a German VAT ID: domestic, German VAT',
      buyer('DE', null, DE_VAT_ID),
      { kind: 'charge', country: 'DE', region: null },
    ],
    [
      'a French buyer with a malformed VAT ID: a consumer',
      buyer('FR', null, 'FR123'),
      { kind: 'charge', country: 'FR', region: null },
    ],
    [
      "a French buyer with another country's VAT ID: a consumer",
      buyer('FR', null, DE_VAT_ID),
      { kind: 'charge', country: 'FR', region: null },
    ],
    ['a UK consumer, the school registered there', buyer('GB'), { kind: 'charge', country: 'GB', region: null }],
    [
      'a UK business with a UK VAT ID: reverse charge',
      buyer('GB', null, 'GB 123 4567 89'),
      { kind: 'reverse-charge', country: 'GB' },
    ],
    ['a buyer in Washington, a registered state', buyer('US', 'WA'), { kind: 'charge', country: 'US', region: 'WA' }],
    ['a buyer in California, not registered', buyer('US', 'CA'), { kind: 'none', reason: 'not-registered' }],
    ['a US buyer without a state', buyer('US'), { kind: 'none', reason: 'region-needed' }],
    ['a buyer in Japan, not registered', buyer('JP'), { kind: 'none', reason: 'not-registered' }],
  ])('%s', (_, place, expected) => {
    expect(taxPlace(GERMAN_SCHOOL, place)).toEqual(expected);
  });

  it('without the OSS a French consumer pays the German rate (the school has no French registration)', () => {
    const seller = { ...GERMAN_SCHOOL, euOss: false };
    expect(taxPlace(seller, buyer('FR'))).toEqual({ kind: 'charge', country: 'DE', region: null });
    // ...unless the school is registered in France itself
    const inFrance = { ...seller, registrations: [{ country: 'FR', region: null }] };
    expect(taxPlace(inFrance, buyer('FR'))).toEqual({ kind: 'charge', country: 'FR', region: null });
  });

  it('a school that has set up no tax charges none anywhere', () => {
    const seller = { country: null, euOss: false, registrations: [] };
    for (const place of [buyer('DE'), buyer('US', 'WA'), buyer('FR', null, FR_VAT_ID)])
      expect(taxPlace(seller, place)).toEqual({ kind: 'none', reason: 'not-set-up' });
  });

  it('a school outside the EU without the OSS charges EU consumers nothing, and still notes the reverse charge', () => {
    const seller = { country: 'GB', euOss: false, registrations: [] };
    expect(taxPlace(seller, buyer('FR'))).toEqual({ kind: 'none', reason: 'not-registered' });
    expect(taxPlace(seller, buyer('GB'))).toEqual({ kind: 'charge', country: 'GB', region: null });
    expect(taxPlace(seller, buyer('FR', null, FR_VAT_ID))).toEqual({ kind: 'reverse-charge', country: 'FR' });
  });

  it('a US school is registered only where it says: its own country registers no state', () => {
    const seller = { country: 'US', euOss: false, registrations: [{ country: 'US', region: 'TX' }] };
    expect(taxPlace(seller, buyer('US', 'TX'))).toEqual({ kind: 'charge', country: 'US', region: 'TX' });
    expect(taxPlace(seller, buyer('US', 'NY'))).toEqual({ kind: 'none', reason: 'not-registered' });
    expect(taxPlace(seller, buyer('US'))).toEqual({ kind: 'none', reason: 'region-needed' });
  });

  it('a Canadian registration covers every province, each at its own rate', () => {
    const seller = { ...GERMAN_SCHOOL, registrations: [{ country: 'CA', region: null }] };
    expect(taxPlace(seller, buyer('CA', 'ON'))).toEqual({ kind: 'charge', country: 'CA', region: 'ON' });
    expect(taxPlace(seller, buyer('CA'))).toEqual({ kind: 'none', reason: 'region-needed' });
    expect(
      taxFrom(setupOf(seller), { currency: 'cad', amount: 10_000, inclusive: false, buyer: buyer('CA', 'ON') }),
    ).toMatchObject({ country: 'CA', region: 'ON', rate: 1300, amount: 1300, name: 'HST' });
    // A province without a row of its own: the country's GST
    expect(
      taxFrom(setupOf(seller), { currency: 'cad', amount: 10_000, inclusive: false, buyer: buyer('CA', 'AB') }),
    ).toMatchObject({ country: 'CA', region: 'AB', rate: 500, amount: 500, name: 'GST' });
  });
});

describe('the tax on a sale', () => {
  const setup = setupOf(GERMAN_SCHOOL);
  const ask = (place: BuyerTaxPlace, amount: number, inclusive: boolean, currency = 'eur') =>
    taxFrom(setup, { currency, amount, inclusive, buyer: place });

  it.each([
    // place, amount, inclusive, expected rate, tax, taxable
    ['German consumer, 119.00 including 19 %', buyer('DE'), 11_900, true, 1900, 1_900, 10_000],
    ['German consumer, 100.00 plus 19 %', buyer('DE'), 10_000, false, 1900, 1_900, 10_000],
    ['French consumer, 49.00 including 20 %', buyer('FR'), 4_900, true, 2000, 817, 4_083],
    ['UK consumer, 49.00 plus 20 %', buyer('GB'), 4_900, false, 2000, 980, 4_900],
    ['Washington, 199.00 plus 6.5 %', buyer('US', 'WA'), 19_900, false, 650, 1_294, 19_900],
    ['Washington, 199.00 including 6.5 %', buyer('US', 'WA'), 19_900, true, 650, 1_215, 18_685],
    ['a one-cent sale including 19 %: no tax inside it', buyer('DE'), 1, true, 1900, 0, 1],
    ['a one-cent sale plus 19 %: nothing to add', buyer('DE'), 1, false, 1900, 0, 1],
    ['three cents plus 20 %: 0.6 rounds up', buyer('FR'), 3, false, 2000, 1, 3],
  ] as const)('%s', (_, place, amount, inclusive, rate, tax, taxable) => {
    const answer = ask(place, amount, inclusive);
    expect(answer).toMatchObject({ rate, amount: tax, taxable, inclusive, reverseCharge: false, source: 'built-in' });
    // net + tax = charged
    expect(answer!.taxable + answer!.amount).toBe(chargedTotal(amount, answer));
  });

  it('yen have no minor unit: the tax is whole yen', () => {
    const jp = { ...setup, seller: { ...GERMAN_SCHOOL, registrations: [{ country: 'JP', region: null }] } };
    expect(taxFrom(jp, { currency: 'jpy', amount: 4_000, inclusive: true, buyer: buyer('JP') })).toMatchObject({
      rate: 1000,
      amount: 364,
      taxable: 3_636,
    });
    expect(taxFrom(jp, { currency: 'jpy', amount: 4_000, inclusive: false, buyer: buyer('JP') })).toMatchObject({
      amount: 400,
      taxable: 4_000,
    });
  });

  it('a reverse-charged sale: rate 0, amount 0, the whole price taxable, the tax named as the country names it', () => {
    expect(ask(buyer('FR', null, FR_VAT_ID), 4_900, true)).toEqual({
      country: 'FR',
      region: null,
      rate: 0,
      amount: 0,
      inclusive: true,
      reverseCharge: true,
      name: 'VAT',
      taxable: 4_900,
      source: 'built-in',
    });
  });

  it('no tax where the school is not registered, nor where the rate table has no rate', () => {
    expect(ask(buyer('US', 'CA'), 4_900, false)).toBeNull();
    expect(ask(buyer('US'), 4_900, false)).toBeNull();
    expect(ask(buyer('JP'), 4_000, true, 'jpy')).toBeNull();
    const withoutWa = { ...setup, rates: RATES.filter((r) => r.region !== 'WA') };
    expect(taxFrom(withoutWa, { currency: 'usd', amount: 4_900, inclusive: false, buyer: buyer('US', 'WA') })).toBe(
      null,
    );
  });

  it('a zero rate in the table means the place does not tax it', () => {
    const zero = { ...setup, rates: [...RATES.filter((r) => r.country !== 'GB'), { ...RATES[2]!, rateBp: 0 }] };
    expect(taxFrom(zero, { currency: 'gbp', amount: 4_900, inclusive: false, buyer: buyer('GB') })).toBeNull();
  });

  it('inclusive: the tax is inside the amount and never more than it; exclusive: added on top (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), fc.integer({ min: 0, max: 5000 }), (amount, rate) => {
        const inside = taxInside(amount, rate);
        const onTop = taxOnTop(amount, rate);
        expect(inside).toBeGreaterThanOrEqual(0);
        expect(inside).toBeLessThanOrEqual(amount);
        // the rounded tax is within half a minor unit of the exact one
        expect(Math.abs(inside * (10_000 + rate) - amount * rate)).toBeLessThanOrEqual((10_000 + rate) / 2);
        expect(Math.abs(onTop * 10_000 - amount * rate)).toBeLessThanOrEqual(5_000);
      }),
    );
  });
});

describe('tax given back by refunds', () => {
  it('is in proportion to the refunded total, and all of it once refunded in full', () => {
    expect(taxRefunded(0, 11_900, 1_900)).toBe(0);
    expect(taxRefunded(5_950, 11_900, 1_900)).toBe(950);
    expect(taxRefunded(11_900, 11_900, 1_900)).toBe(1_900);
    expect(taxRefunded(1, 1, 0)).toBe(0);
    expect(taxShare(-5_950, 11_900, 1_900)).toBe(-950);
    expect(taxShare(5_950, 11_900, 1_900)).toBe(950);
  });

  it('partial refunds in any steps never drift and end at the whole tax (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 5000 }),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 1_000 }), { minLength: 1, maxLength: 12 }),
        (amount, rate, inclusive, weights) => {
          const tax = inclusive ? taxInside(amount, rate) : taxOnTop(amount, rate);
          const charged = inclusive ? amount : amount + tax;
          // the charge refunded in steps, the last one taking what is left
          const whole = weights.reduce((s, w) => s + w, 0);
          let refunded = 0;
          let taxBack = 0;
          let seen = 0;
          for (const weight of weights) {
            seen += weight;
            const next = Math.floor((charged * seen) / whole);
            const step = taxRefunded(next, charged, tax) - taxRefunded(refunded, charged, tax);
            expect(step).toBeGreaterThanOrEqual(0);
            taxBack += step;
            refunded = next;
            // the tax given back so far is the running total's share, within half a minor unit
            expect(Math.abs(taxBack * charged - refunded * tax)).toBeLessThanOrEqual(charged / 2);
            expect(taxBack).toBeLessThanOrEqual(tax);
          }
          expect(refunded).toBe(charged);
          expect(taxBack).toBe(tax);
        },
      ),
    );
  });
});

describe('VAT IDs by format', () => {
  it.each([
    ['DE123456789', 'DE'],
    ['de 123 456 789', 'DE'],
    ['FR40303265045', 'FR'],
    ['FR-K7-399859412', 'FR'],
    ['EL123456789', 'GR'],
    ['ATU12345678', 'AT'],
    ['NL123456789B01', 'NL'],
    ['IE6388047V', 'IE'],
    ['SE556677889901', 'SE'],
    ['GB123456789', 'GB'],
    ['GBGD123', 'GB'],
    ['DE12345678', null],
    ['GR123456789', null],
    ['FR123', null],
    ['', null],
  ])('%s belongs to %s', (id, country) => {
    expect(vatIdCountry(id)).toBe(country);
  });

  it('says why an ID cannot serve a buyer of a country', () => {
    expect(vatIdProblem('FR40303265045', 'FR')).toBeNull();
    expect(vatIdProblem('FR40303265045', 'DE')).toBe('vat-id-other-country');
    expect(vatIdProblem('XX123', 'DE')).toBe('vat-id-format');
    expect(normalizeVatId(' fr 40.303-265/045 ')).toBe('FR40303265045');
  });
});
