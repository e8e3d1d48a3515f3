import type { Knex } from 'knex';
import { enrollmentState } from '../../catalog/service';
import { seatsSold } from '../../catalog/seats-sold';
import type { ProductFacts } from './locked-checkout';

/** Why a checkout cannot be had (when it starts, and again under the locks when it is settled), as an error code. */
export type Availability =
  | 'sold-out'
  | 'enrollment-closed'
  | 'enrollment-not-open'
  | 'upgrade-not-available'
  | 'already-purchased'
  | 'buyer-blocked'
  | 'coupon-used-up'
  | null;

export const MESSAGES: Record<Exclude<Availability, null>, string> = {
  'sold-out': 'This course is sold out.',
  'enrollment-closed': 'Enrollment for this course has closed.',
  'enrollment-not-open': 'Enrollment for this course has not opened yet.',
  'upgrade-not-available':
    'The course this upgrade was priced from is no longer yours to upgrade (it was upgraded, refunded or given away).',
  'already-purchased':
    'You already have this course, and a copy bought at a regional price cannot be given away as a seat.',
  'buyer-blocked':
    'Purchases are not possible for this account. If you think this is a mistake, contact our support team.',
  'coupon-used-up': 'The last use of the coupon this price was given with went before the payment completed.',
};

/** Whether the product can be had now: its enrollment window, and its seats (counted under the product's lock). */
export async function availability(
  trx: Knex | Knex.Transaction,
  product: ProductFacts,
  seats: number,
  now: Date,
): Promise<Availability> {
  const enrollment = enrollmentState(product, now);
  if (enrollment !== 'open') return enrollment === 'closed' ? 'enrollment-closed' : 'enrollment-not-open';
  if (product.quantityAvailable >= 0 && (await seatsSold(trx, product.id)) + seats > product.quantityAvailable)
    return 'sold-out';
  return null;
}
