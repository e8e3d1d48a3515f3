import { describe, expect, it } from 'vitest';
import data from '../../api/src/tax/data/digital-services-rates.json';
import { taxInside, taxOnTop } from '../../api/src/tax/amounts';
import { EU_MEMBER_STATES } from '../../api/src/tax/places';

const rateOf = (country: string, region: string | null = null) =>
  data.rates.find((r) => r.country === country && r.region === region)?.rateBp;

describe('the reference rates for digital services', () => {
  it('are dated, and each names where it comes from', () => {
    expect(data.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(data.note).toContain('state rate only; local rates are not included');
    for (const rate of data.rates) {
      expect(Object.keys(data.sources), `${rate.country} ${rate.region}`).toContain(rate.source);
      expect(rate.country).toMatch(/^[A-Z]{2}$/);
      if (rate.region !== null) expect(rate.region).toMatch(/^[A-Z0-9]{1,3}$/);
      // basis points to a tenth at most, within the table's range
      expect(Number.isInteger(rate.rateBp * 10)).toBe(true);
      expect(rate.rateBp).toBeGreaterThan(0);
      expect(rate.rateBp).toBeLessThanOrEqual(5000);
      expect(rate.name.length).toBeGreaterThan(0);
    }
  });

  it('hold one row per place', () => {
    const places = data.rates.map((r) => `${r.country}-${r.region ?? ''}`);
    expect(new Set(places).size).toBe(places.length);
  });

  it('cover every EU member state at its standard rate, recent changes included', () => {
    const eu = data.rates.filter((r) => EU_MEMBER_STATES.has(r.country));
    expect(new Set(eu.map((r) => r.country))).toEqual(EU_MEMBER_STATES);
    expect(eu.every((r) => r.region === null && r.name === 'VAT')).toBe(true);
    expect([rateOf('DE'), rateOf('FR'), rateOf('HU'), rateOf('LU')]).toEqual([1900, 2000, 2700, 1700]);
    expect([rateOf('FI'), rateOf('EE'), rateOf('SK'), rateOf('RO')]).toEqual([2550, 2400, 2300, 2100]);
  });

  it('cover the UK, Australia, New Zealand, Canada by province and a few US states', () => {
    expect([rateOf('GB'), rateOf('AU'), rateOf('NZ'), rateOf('CA')]).toEqual([2000, 1000, 1500, 500]);
    expect(['ON', 'NB', 'NL', 'PE', 'NS', 'QC', 'BC', 'MB', 'SK'].map((p) => rateOf('CA', p))).toEqual([
      1300, 1500, 1500, 1500, 1400, 1497.5, 1200, 1200, 1100,
    ]);
    for (const territory of ['AB', 'NT', 'NU', 'YT']) expect(rateOf('CA', territory)).toBe(500);
    expect(['WA', 'PA', 'TX', 'UT', 'TN'].map((s) => rateOf('US', s))).toEqual([650, 600, 625, 610, 700]);
    expect(rateOf('US')).toBeUndefined();
  });

  it("compute Quebec's 14.975 % to the cent, half up", () => {
    const qc = rateOf('CA', 'QC')!;
    expect(taxOnTop(10_000, qc)).toBe(1_498); // 1497.5 rounds up
    expect(taxOnTop(4_900, qc)).toBe(734); // 733.775
    expect(taxInside(11_497, qc)).toBe(1_497); // 1497.43…
  });
});
