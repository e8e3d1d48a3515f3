import type { Knex } from 'knex';
import { readTaxSetup, taxFrom } from '../../tax/engine';
import { chargedTotal } from '../../tax/types';
import { percentOf } from '../pricing/prices';
import { couponPeriods } from './period-price';

interface Charged {
  id: string;
  quantity: number | null;
  couponId: string | null;
  pppBp: number | null;
  taxCountry: string | null;
  taxRegion: string | null;
  taxVatId: string | null;
}

/**
 * What the subscription's next period will be charged (docs/domain.md §22), as its Billing page tells it: the price
 * for its seats (`full`), at its regional price, less its coupon while the coupon has periods left, plus tax where it
 * comes on top.
 */
/** The price for the seats at the subscription's regional price, kept for as long as it lasts: what the provider bills. */
export function regionalAmount(full: number, pppBp: number | null): number {
  return pppBp ? full - percentOf(full, pppBp) : full;
}

export async function nextChargeAmount(conn: Knex, sub: Charged, full: number, currency: string): Promise<number> {
  const regional = regionalAmount(full, sub.pppBp);
  let amount = regional;
  if (sub.couponId) {
    const coupon = await conn('coupons')
      .where({ id: sub.couponId })
      .first('percentageDiscount', 'duration', 'durationPeriods');
    const [{ n }] = (await conn('subscriptionPeriods')
      .where({ subscriptionId: sub.id, couponId: sub.couponId, outcome: 'paid' })
      .count({ n: '*' })) as [{ n: string | number }];
    const periods = coupon && couponPeriods(coupon);
    if (coupon && (periods === null || Number(n) < periods))
      amount = regional - percentOf(regional, Math.round(Number(coupon.percentageDiscount) * 10_000));
  }
  if (!sub.taxCountry) return amount;
  const setup = await readTaxSetup(conn);
  const inclusive = setup.inclusiveCurrencies.includes(currency.toLowerCase());
  const buyer = { country: sub.taxCountry, region: sub.taxRegion, vatId: sub.taxVatId };
  return chargedTotal(amount, taxFrom(setup, { currency, amount, inclusive, buyer }));
}
