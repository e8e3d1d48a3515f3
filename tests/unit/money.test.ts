import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../api/src/commerce/money';

describe('formatMoney', () => {
  it('writes cents as a buyer reads them, in each currency, however often it is asked', () => {
    expect(formatMoney(2450, 'usd')).toBe('$24.50');
    expect(formatMoney(2450, 'USD')).toBe('$24.50');
    expect(formatMoney(100_000, 'eur')).toBe('€1,000.00');
    expect(formatMoney(2450, 'usd')).toBe('$24.50');
    expect(formatMoney(0, 'gbp')).toBe('£0.00');
  });

  it('refuses a currency that does not exist', () => {
    expect(() => formatMoney(100, 'xx')).toThrow(RangeError);
  });
});
