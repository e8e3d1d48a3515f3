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

/** What one charge of a subscription comes to, as the provider bills it: less the coupon, with its tax. */
interface ChargeBreakdown {
  /** What the provider charges: the amount less the coupon, plus tax where it comes on top. */
  total: number;
  /** What the coupon takes off (0 once its periods are used up). */
  discount: number;
  /** The tax inside the total or added on top of it; null where none is charged (untaxed, reverse-charged). */
  tax: { amount: number; inclusive: boolean } | null;
}

/** The price for the seats at the subscription's regional price, kept for as long as it lasts: what the provider bills. */
export function regionalAmount(full: number, pppBp: number | null): number {
  return pppBp ? full - percentOf(full, pppBp) : full;
}

/**
 * The coupon's percentage (basis points) while it has periods left on the subscription, else 0: as the provider
 * counts them, one a period paid with it.
 */
async function couponBpLeft(conn: Knex, sub: Charged): Promise<number> {
  if (!sub.couponId) return 0;
  const coupon = await conn('coupons')
    .where({ id: sub.couponId })
    .first('percentageDiscount', 'duration', 'durationPeriods');
  if (!coupon) return 0;
  // Periods, not charges: added seats are charged within the period they join (its end), a switch starts a new one.
  const [{ n }] = (await conn('subscriptionPeriods')
    .where({ subscriptionId: sub.id, couponId: sub.couponId, outcome: 'paid' })
    .countDistinct({ n: 'periodEnd' })) as [{ n: string | number }];
  const periods = couponPeriods(coupon);
  return periods === null || Number(n) < periods ? Math.round(Number(coupon.percentageDiscount) * 10_000) : 0;
}

/**
 * What the provider charges for `amount` (already at the subscription's regional price) billed now (docs/domain.md
 * §22): its coupon taken off while the coupon has periods left (rounded half up), then the tax of its billing place,
 * inside the price or added on top. A period's renewal, a switch's prorated difference and added seats alike.
 */
export async function chargeBreakdown(
  conn: Knex,
  sub: Charged,
  amount: number,
  currency: string,
): Promise<ChargeBreakdown> {
  const discount = percentOf(amount, await couponBpLeft(conn, sub));
  const base = amount - discount;
  if (!sub.taxCountry) return { total: base, discount, tax: null };
  const setup = await readTaxSetup(conn);
  const inclusive = setup.inclusiveCurrencies.includes(currency.toLowerCase());
  const buyer = { country: sub.taxCountry, region: sub.taxRegion, vatId: sub.taxVatId };
  const tax = taxFrom(setup, { currency, amount: base, inclusive, buyer });
  return {
    total: chargedTotal(base, tax),
    discount,
    tax: tax && !tax.reverseCharge && tax.amount > 0 ? { amount: tax.amount, inclusive } : null,
  };
}

/**
 * What the subscription's next period will be charged (docs/domain.md §22), as its Billing page tells it: the price
 * for its seats (`full`), at its regional price, less its coupon while the coupon has periods left, plus tax where it
 * comes on top.
 */
export async function nextChargeAmount(conn: Knex, sub: Charged, full: number, currency: string): Promise<number> {
  return (await chargeBreakdown(conn, sub, regionalAmount(full, sub.pppBp), currency)).total;
}
