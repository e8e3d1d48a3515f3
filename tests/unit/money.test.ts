import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../api/src/shared/money';
import { currencyExponent, currencyProblem, toMajorUnits } from '../../api/src/shared/currency';
import {
  formatMoney as consoleMoney,
  fromCents,
  parseMajorUnits,
  toCents,
  tooManyDecimals,
} from '../../admin/src/common/money';

describe('formatMoney', () => {
  it('writes cents as a buyer reads them, in each currency, however often it is asked', () => {
    expect(formatMoney(2450, 'usd')).toBe('$24.50');
    expect(formatMoney(2450, 'USD')).toBe('$24.50');
    expect(formatMoney(100_000, 'eur')).toBe('€1,000.00');
    expect(formatMoney(2450, 'usd')).toBe('$24.50');
    expect(formatMoney(0, 'gbp')).toBe('£0.00');
  });

  it('writes a zero-decimal currency in whole units: 4000 jpy is ¥4,000, never ¥40', () => {
    expect(formatMoney(4000, 'jpy')).toBe('¥4,000');
    expect(formatMoney(50_000, 'krw')).toBe('₩50,000');
    expect(consoleMoney(4000, 'jpy')).toBe('¥4,000');
    expect(consoleMoney(null, 'jpy')).toBe('—');
    expect(consoleMoney(4900, '')).toBe('$49.00');
  });

  it('writes a negative amount with a minus sign, as an invoice prints a credit', () => {
    expect(formatMoney(-3920, 'usd')).toBe('\u2212$39.20');
    expect(formatMoney(-1000, 'jpy')).toBe('\u2212¥1,000');
    expect(formatMoney(0, 'usd')).toBe('$0.00');
  });

  it('refuses a currency that does not exist', () => {
    expect(() => formatMoney(100, 'xx')).toThrow(RangeError);
  });
});

describe("a currency's minor unit (api/src/shared/currency.ts)", () => {
  it("has Intl's decimals: two for usd, none for jpy, krw, vnd, clp and xof", () => {
    expect(currencyExponent('usd')).toBe(2);
    for (const code of ['jpy', 'JPY', 'krw', 'vnd', 'clp', 'xof', 'ugx']) expect(currencyExponent(code), code).toBe(0);
    expect(toMajorUnits(4000, 'jpy')).toBe(4000);
    expect(toMajorUnits(4900, 'usd')).toBe(49);
  });

  it('refuses for prices what Stripe counts in another unit (ISK, HUF, IDR, three-decimal) and what is no currency', () => {
    for (const code of ['usd', 'eur', 'gbp', 'jpy', 'krw', 'twd', 'ugx'])
      expect(currencyProblem(code), code).toBeNull();
    for (const code of ['isk', 'huf', 'idr', 'kwd', 'bhd'])
      expect(currencyProblem(code), code).toBe('currency-not-supported');
    for (const code of ['xyz', 'us', 'dollar']) expect(currencyProblem(code), code).toBe('currency-unknown');
  });
});

describe("the console's money inputs in a zero-decimal currency", () => {
  it('take whole yen: 4000 typed is 4000 sent, never 400000', () => {
    expect(toCents('4000', 'jpy')).toBe(4000);
    expect(fromCents(4000, 'jpy')).toBe('4000');
    expect(toCents('49.99', 'usd')).toBe(4999);
    expect(parseMajorUnits('4,000', 'jpy')).toBe(4000);
    expect(parseMajorUnits('¥4,000', 'jpy')).toBe(4000);
    expect(parseMajorUnits('4000', 'usd')).toBe(400_000);
  });

  it('refuse a fraction of a yen, and say why', () => {
    expect(toCents('4000.5', 'jpy')).toBe(4000.5); // kept as typed, so the field's rule refuses it
    expect(parseMajorUnits('4000.5', 'jpy')).toBeNull();
    expect(tooManyDecimals('4000.5', 'jpy')).toEqual({
      message: 'console.money.wholeUnits',
      args: { currency: 'JPY' },
    });
    expect(tooManyDecimals('12.345', 'usd')).toEqual({ message: 'console.money.wholeCents', args: {} });
    expect(tooManyDecimals('12.34', 'usd')).toBeNull();
  });
});
