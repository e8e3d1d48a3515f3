import type { Knex } from 'knex';
import type { BillingInterval } from '../../payments/provider';
import { AppError } from '../../shared/errors';

export interface IntervalPrice {
  id: string;
  unitAmount: number;
  currency: string;
  billingInterval: BillingInterval;
}

/** A membership's current prices, one per billing interval (docs/domain.md §22): monthly first. */
export async function intervalPricesOf(conn: Knex, productId: string): Promise<IntervalPrice[]> {
  return conn('prices')
    .where({ productId, status: 'active' })
    .whereNotNull('billingInterval')
    .orderByRaw(`billing_interval = 'year'`)
    .select('id', 'unitAmount', 'currency', 'billingInterval');
}

/** The membership's current price billed every `interval`; `interval-not-offered` when it has none. */
export async function priceForInterval(
  conn: Knex,
  productId: string,
  interval: BillingInterval,
): Promise<IntervalPrice> {
  const price = (await intervalPricesOf(conn, productId)).find((p) => p.billingInterval === interval);
  if (!price)
    throw new AppError(
      'interval-not-offered',
      `This membership is not offered ${interval === 'year' ? 'yearly' : 'monthly'}.`,
    );
  return price;
}
