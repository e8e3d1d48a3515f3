import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_QUANTITY,
  MIN_CHARGE,
  percentOf,
  pppDiscountBp,
  quote,
  teamDiscountBp,
  type CouponOffer,
  type PricingInput,
} from '../../api/src/commerce/pricing/prices';
import ratios from '../../api/src/commerce/pricing/data/ppp-price-level-ratios.json';

const base: PricingInput = {
  unitAmount: 10_000,
  quantity: 1,
  team: false,
  existingSeats: 0,
  pppBp: null,
  pppRequested: false,
  coupon: null,
  defaultCoupon: null,
  upgradeCredit: 0,
};
const coupon = (bp: number, id = 'entered'): CouponOffer => ({ id, code: 'CODE', bp, expires: null });
const sale = (bp: number): CouponOffer => ({ id: 'sale', code: null, bp, expires: new Date('2030-01-01') });

describe('percentOf rounds half away from zero, to the cent', () => {
  it.each([
    [1000, 2500, 250],
    [999, 1500, 150], // 149.85
    [1, 5000, 1], // 0.5 → 1
    [3, 5000, 2], // 1.5 → 2
    [4900, 3333, 1633], // 1633.17
    [0, 7500, 0],
  ])('%i × %i bp = %i', (amount, bp, expected) => expect(percentOf(amount, bp)).toBe(expected));
});

describe('regional pricing (PPP)', () => {
  it.each([
    [0.253539, 7500], // India: 74.6 % → 75 %, the cap
    [0.185439, 7500], // Pakistan: 81.5 % capped at 75 %
    [0.439636, 5500], // Brazil: 56.0 % → 55 %
    [0.592022, 4000], // Czechia: 40.8 % → 40 %
    [0.62, 4000], // 38 % rounds to 40 %: offered
    [0.63, null], // 37 % rounds to 35 %: below 40 %, none
    [0.857527, null], // Germany
    [1.301524, null], // Switzerland: dearer than the US
    [undefined, null],
    [0, null],
  ])('ratio %s → %s bp', (ratio, expected) => expect(pppDiscountBp(ratio)).toBe(expected));

  it('covers every country in the data file with a sane discount', () => {
    for (const [country, ratio] of Object.entries((ratios as { ratios: Record<string, number> }).ratios)) {
      const bp = pppDiscountBp(ratio);
      if (bp !== null) {
        expect(bp, country).toBeGreaterThanOrEqual(4000);
        expect(bp, country).toBeLessThanOrEqual(7500);
        expect(bp % 500, country).toBe(0);
      }
    }
  });

  it('applies only when asked, for one seat, and restricts the purchase', () => {
    const offered = quote({ ...base, pppBp: 6000 });
    expect(offered.finalPrice).toBe(10_000);
    expect(offered.notApplied).toContainEqual({ kind: 'ppp', reason: 'not-requested' });
    const taken = quote({ ...base, pppBp: 6000, pppRequested: true });
    expect(taken).toMatchObject({ finalPrice: 4000, restricted: true, discount: { kind: 'ppp', amount: 6000 } });
    const team = quote({ ...base, quantity: 3, team: true, pppBp: 6000, pppRequested: true });
    expect(team.restricted).toBe(false);
    expect(team.notApplied).toContainEqual({ kind: 'ppp', reason: 'team-purchase' });
  });
});

describe('team tiers', () => {
  it.each([
    [1, 0],
    [4, 0],
    [5, 1500],
    [9, 1500],
    [10, 2500],
    [29, 2500],
    [30, 3500],
    [100, 3500],
  ])('%i seats → %i bp', (seats, bp) => expect(teamDiscountBp(seats)).toBe(bp));

  it('counts the seats the buyer already bought', () => {
    expect(quote({ ...base, quantity: 3, team: true }).discount).toBeNull();
    const more = quote({ ...base, quantity: 3, team: true, existingSeats: 2 });
    expect(more).toMatchObject({
      fullPrice: 30_000,
      finalPrice: 25_500,
      discount: { kind: 'team', bp: 1500, amount: 4500 },
    });
    expect(quote({ ...base, quantity: 10, team: true }).discount).toMatchObject({ bp: 2500, amount: 25_000 });
  });
});

describe('coupons', () => {
  it('applies an entered coupon', () => {
    expect(quote({ ...base, coupon: coupon(2000) })).toMatchObject({
      finalPrice: 8000,
      discount: { kind: 'coupon', couponId: 'entered' },
    });
  });

  it('applies the default sale automatically', () => {
    expect(quote({ ...base, defaultCoupon: sale(2000) })).toMatchObject({
      finalPrice: 8000,
      discount: { kind: 'default-coupon', couponId: 'sale' },
    });
  });

  it('lets the entered coupon win over the sale unless the sale saves more on one unit', () => {
    const equal = quote({ ...base, coupon: coupon(2000), defaultCoupon: sale(2000) });
    expect(equal.discount?.kind).toBe('coupon');
    expect(equal.notApplied).toContainEqual({ kind: 'default-coupon', reason: 'entered-coupon-wins' });
    const better = quote({ ...base, coupon: coupon(1000), defaultCoupon: sale(2500) });
    expect(better.discount).toMatchObject({ kind: 'default-coupon', amount: 2500 });
    expect(better.notApplied).toContainEqual({ kind: 'coupon', reason: 'saves-less' });
  });

  it('picks the single discount that saves the most among coupon, team and PPP', () => {
    const teamWins = quote({ ...base, quantity: 10, team: true, coupon: coupon(1000) });
    expect(teamWins.discount).toMatchObject({ kind: 'team', bp: 2500 });
    expect(teamWins.notApplied).toContainEqual({ kind: 'coupon', reason: 'saves-less' });
    const pppWins = quote({ ...base, pppBp: 7500, pppRequested: true, defaultCoupon: sale(2000) });
    expect(pppWins.discount?.kind).toBe('ppp');
    const tie = quote({ ...base, pppBp: 4000, pppRequested: true, coupon: coupon(4000) });
    expect(tie).toMatchObject({ discount: { kind: 'coupon' }, restricted: false });
  });

  it('redeems a 100 % coupon for free', () => {
    expect(quote({ ...base, coupon: coupon(10_000) })).toMatchObject({
      finalPrice: 0,
      free: true,
      discount: { amount: 10_000 },
    });
  });
});

describe('upgrade credit', () => {
  it('comes off after the percentage discount, so source + upgrade never exceed the target that day', () => {
    const upgrade = quote({ ...base, unitAmount: 19_900, upgradeCredit: 4900, coupon: coupon(1000) });
    expect(upgrade).toMatchObject({ fullPrice: 19_900, discount: { amount: 1990 }, credit: 4900, finalPrice: 13_010 });
    // The reported case: Fundamentals bought for $39.20 in the 20 % sale, then Pro ($199) in the same sale. Pro costs
    // $159.20 that day; the upgrade is $120.00, not $127.84.
    const sale = quote({ ...base, unitAmount: 19_900, upgradeCredit: 3920, defaultCoupon: coupon(2000) });
    expect(sale).toMatchObject({
      discount: { kind: 'default-coupon', amount: 3980 },
      credit: 3920,
      finalPrice: 12_000,
    });
    expect(3920 + sale.finalPrice).toBe(19_900 - 3980);
  });

  it('never exceeds the price, and does not apply to team purchases', () => {
    expect(quote({ ...base, upgradeCredit: 50_000 })).toMatchObject({ credit: 10_000, finalPrice: 0, free: true });
    expect(quote({ ...base, quantity: 2, team: true, upgradeCredit: 5000 }).credit).toBe(0);
  });

  it('unlocks a regional purchase at full price: credit is what was paid', () => {
    expect(quote({ ...base, upgradeCredit: 2500 })).toMatchObject({
      credit: 2500,
      finalPrice: 7500,
      restricted: false,
    });
  });
});

describe('the minimum charge', () => {
  it.each([
    [
      'a tiny remainder left by a credit is covered by it (never charged above the target)',
      { ...base, upgradeCredit: 9_950 },
      { finalPrice: 0, credit: 10_000, free: true },
    ],
    [
      'a discount that leaves cents is cut back',
      { ...base, unitAmount: 500, coupon: coupon(9_500) },
      { finalPrice: 100, discount: { amount: 400 } },
    ],
    [
      'a product under a dollar is charged its price',
      { ...base, unitAmount: 60, coupon: coupon(5000) },
      { finalPrice: 60, discount: null },
    ],
    [
      'zero stays a free redemption',
      { ...base, unitAmount: 500, coupon: coupon(10_000) },
      { finalPrice: 0, free: true },
    ],
  ])('%s', (_label, input, expected) => expect(quote(input)).toMatchObject(expected));
});

it('refuses quantities outside 1–100', () => {
  for (const quantity of [0, 101, 1.5]) expect(() => quote({ ...base, quantity })).toThrow(RangeError);
});

describe('properties', () => {
  const offer = fc.option(
    fc.record({
      id: fc.uuid(),
      code: fc.constant('X'),
      bp: fc.integer({ min: 1, max: 10_000 }),
      expires: fc.constant(null),
    }),
    { nil: null },
  );
  const inputs = fc
    .record({
      unitAmount: fc.integer({ min: 0, max: 1_000_000 }),
      quantity: fc.integer({ min: 1, max: MAX_QUANTITY }),
      team: fc.boolean(),
      existingSeats: fc.integer({ min: 0, max: 200 }),
      pppBp: fc.option(
        fc.integer({ min: 8, max: 15 }).map((n) => n * 500),
        { nil: null },
      ),
      pppRequested: fc.boolean(),
      coupon: offer,
      defaultCoupon: offer,
      upgradeCredit: fc.integer({ min: 0, max: 2_000_000 }),
    })
    .map((i) => ({ ...i, team: i.team || i.quantity > 1 }));

  it('never goes below zero or above the full price', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const q = quote(input);
        return q.finalPrice >= 0 && q.finalPrice <= q.fullPrice && q.fullPrice === input.unitAmount * input.quantity;
      }),
      { numRuns: 5000 },
    );
  });

  it('explains the difference exactly with the credit and the one discount listed', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const q = quote(input);
        return (
          q.fullPrice - q.finalPrice === q.credit + (q.discount?.amount ?? 0) &&
          q.credit >= 0 &&
          (q.discount === null || q.discount.amount > 0)
        );
      }),
      { numRuns: 5000 },
    );
  });

  it('charges nothing or at least the minimum (unless the price itself is lower)', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const q = quote(input);
        return q.finalPrice === 0 || q.finalPrice >= Math.min(MIN_CHARGE, q.fullPrice);
      }),
      { numRuns: 5000 },
    );
  });

  it('restricts exactly the purchases priced with PPP, which are single-seat and asked for', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const q = quote(input);
        return (
          q.restricted === (q.discount?.kind === 'ppp') &&
          (!q.restricted || (input.quantity === 1 && !input.team && input.pppRequested))
        );
      }),
      { numRuns: 5000 },
    );
  });

  it('never charges more because the buyer entered a coupon or a sale is on', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const price = quote(input).finalPrice;
        return (
          price <= quote({ ...input, coupon: null }).finalPrice &&
          price <= quote({ ...input, defaultCoupon: null }).finalPrice
        );
      }),
      { numRuns: 5000 },
    );
  });

  it('never makes the upgrade plus its credit cost more than the target does without it (docs/domain.md §5.3)', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const withCredit = quote(input);
        const without = quote({ ...input, upgradeCredit: 0 });
        return (
          withCredit.credit + withCredit.finalPrice <= without.finalPrice ||
          (withCredit.credit === 0 && withCredit.finalPrice === without.finalPrice)
        );
      }),
      { numRuns: 5000 },
    );
  });
});
