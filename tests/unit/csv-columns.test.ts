import { describe, expect, it } from 'vitest';
import {
  csvRowLine,
  derived,
  headersOf,
  instant,
  labelled,
  money,
  text,
  words,
  yesIfSet,
  yesNo,
} from '../../api/src/http/csv-columns';

describe('export columns as people read them', () => {
  it('writes money in its currency’s units, exactly, with the currency’s own number of decimals', () => {
    const paid = money('Paid', 'amount');
    expect(paid.cell({ amount: 2450, currency: 'usd' })).toBe('24.50');
    expect(paid.cell({ amount: 5, currency: 'eur' })).toBe('0.05');
    expect(paid.cell({ amount: -705, currency: 'usd' })).toBe('-7.05');
    expect(paid.cell({ amount: 4000, currency: 'jpy' })).toBe('4000');
    expect(paid.cell({ amount: 1234, currency: 'KWD' })).toBe('1.234');
    // 2^53 − 1 cents are still exact: no float division on the way.
    expect(paid.cell({ amount: 9_007_199_254_740_991, currency: 'usd' })).toBe('90071992547409.91');
    expect(paid.cell({ amount: null, currency: 'usd' })).toBe('');
    // The currency from another field: a refund's is its charge's.
    expect(money('Amount', 'amount', 'chargeCurrency').cell({ amount: 900, chargeCurrency: 'gbp' })).toBe('9.00');
  });

  it('writes instants in ISO 8601 UTC, whether a Date or its JSON, and words for codes, lists and flags', () => {
    const at = instant('At', 'at');
    expect(at.cell({ at: new Date('2026-11-28T15:04:05.006+01:00') })).toBe('2026-11-28T14:04:05.006Z');
    expect(at.cell({ at: '2026-11-28T14:04:05.006Z' })).toBe('2026-11-28T14:04:05.006Z');
    expect(at.cell({ at: null })).toBe('');
    expect(labelled('Reason', 'code', { duplicate: 'Duplicate purchase' }).cell({ code: 'duplicate' })).toBe(
      'Duplicate purchase',
    );
    expect(labelled('Reason', 'code', {}).cell({ code: 'other' })).toBe('other');
    expect(words('Roles', 'roles').cell({ roles: ['support', 'finance'] })).toBe('"support, finance"');
    expect(yesNo('Sale', 'on').cell({ on: true })).toBe('Yes');
    expect(yesNo('Sale', 'on').cell({ on: false })).toBe('No');
    expect(yesIfSet('Blocked', 'at').cell({ at: '2026-11-28T15:04:05.000Z' })).toBe('Yes');
    expect(yesIfSet('Blocked', 'at').cell({ at: null })).toBe('No');
  });

  it('keeps every text cell formula-safe and quoted where a spreadsheet of any locale would split it', () => {
    const columns = [text('Name', 'name'), derived('Seats', (r) => `${String(r.used)} / ${String(r.total)}`)];
    expect(headersOf(columns)).toEqual(['Name', 'Seats']);
    expect(csvRowLine(columns, { name: 'Zoë;=cmd|calc', used: 1, total: 5 })).toBe('"Zoë;=cmd|calc",1 / 5\r\n');
    expect(csvRowLine(columns, { name: '=HYPERLINK("x")', used: 0, total: 1 })).toBe(`"'=HYPERLINK(""x"")",0 / 1\r\n`);
  });
});
