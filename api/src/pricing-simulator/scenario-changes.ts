import { formatMoney } from '../shared/money';
import type { AppliedDiscount, DiscountKind } from '../commerce/pricing/prices';
import type { ScenarioChange, ScenarioOutcome } from './schemas';

const KIND_WORDS: Record<DiscountKind, string> = {
  coupon: 'Coupon',
  'default-coupon': 'Sale',
  team: 'Team seats discount',
  ppp: 'Regional price',
};

type Discount = Omit<AppliedDiscount, 'couponId'> | null;

const discountWords = (d: Discount, currency: string) =>
  d ? `${KIND_WORDS[d.kind]} ${d.bp / 100}% (−${formatMoney(d.amount, currency)})` : 'none';

/**
 * What a buyer would see change between a scenario's expected answer and its latest one, each in words ("Total:
 * $1,791.00 → $2,241.00"): the prices, the discount, the upgrade credit, whether it is charged, where it opens, the
 * coupon's fate and the team's seats. Why other discounts did not apply (and in which order) is the simulator's
 * explanation to staff: a change there alone is not a changed answer.
 */
export function buyerVisibleChanges(expected: ScenarioOutcome, actual: ScenarioOutcome): ScenarioChange[] {
  const changes: ScenarioChange[] = [];
  const money = (cents: number, outcome: ScenarioOutcome) => formatMoney(cents, outcome.currency);
  const compare = (what: string, words: (o: ScenarioOutcome) => string) => {
    const [from, to] = [words(expected), words(actual)];
    if (from !== to) changes.push({ what, from, to });
  };
  compare('Currency', (o) => o.currency.toUpperCase());
  compare('Unit price', (o) => money(o.quote.unitAmount, o));
  compare('Seats', (o) => String(o.quote.quantity));
  compare('List price', (o) => money(o.quote.fullPrice, o));
  compare('Discount', (o) => discountWords(o.quote.discount, o.currency));
  compare('Upgrade credit', (o) => money(o.quote.credit || o.upgradeCredit || 0, o));
  compare('Total', (o) => money(o.quote.finalPrice, o));
  compare('Charged', (o) => (o.quote.free ? 'no: redeemed' : 'yes'));
  compare('Access', (o) => (o.quote.restricted ? 'only from the purchase country' : 'from anywhere'));
  compare('Coupon', (o) => o.couponProblem ?? 'applies or none entered');
  compare('Team seats', (o) => (o.teamSeats === null ? 'not a team' : String(o.teamSeats)));
  return changes;
}
