import { LOCALE } from '../../readerClock';
import type { DiscountKind, QuoteAnswer } from '../../api/commerce';
import { plural } from '../../../../api/src/shared/words';

// Made when first needed, not as the page's code loads (Intl's first formatter is costly on a phone).
let number: Intl.NumberFormat | undefined;

/** "20 %" from 20 (the API's percents can carry float noise such as 7.000000000000001). */
export function formatPercent(percent: number): string {
  number ??= new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 });
  return `${number.format(percent)} %`;
}

/** "25 %" from 2500 basis points. */
export function formatBp(bp: number): string {
  return formatPercent(bp / 100);
}

let regionNames: Intl.DisplayNames | null | undefined;

/** "India" from "IN", in the reader's language; the code itself when the browser cannot name it. */
export function countryName(code: string): string {
  if (regionNames === undefined) {
    try {
      regionNames = new Intl.DisplayNames(LOCALE, { type: 'region' });
    } catch {
      regionNames = null;
    }
  }
  try {
    return regionNames?.of(code) ?? code;
  } catch {
    return code;
  }
}

/** A team tier of docs/domain.md §5.2 (seats bought, now and before → discount), as the quote answer carries them. */
type TeamTier = QuoteAnswer['teamTiers'][number];

/** The tier `seats` reach among the quote's `tiers`; 1–4 seats get none. */
export function tierFor(tiers: readonly TeamTier[], seats: number): TeamTier | null {
  return tiers.findLast((tier) => seats >= tier.min) ?? null;
}

export function tierRange(tier: TeamTier): string {
  return tier.max === null ? `${tier.min}+ seats` : `${tier.min}–${tier.max} seats`;
}

/** How a discount is named in the breakdown and in explanations: "Sale (20 % off)". */
export function discountLabel(kind: DiscountKind, bp: number, answer: QuoteAnswer): string {
  const off = `${formatBp(bp)} off`;
  switch (kind) {
    case 'ppp':
      return `Regional price for ${countryName(answer.ppp?.country ?? answer.country ?? '')} (${off})`;
    case 'team':
      return `Team discount for ${plural(answer.team?.seats ?? answer.quote.quantity, 'seat', 'seats')} (${off})`;
    case 'coupon':
      return answer.coupon ? `Coupon ${answer.coupon.code.toUpperCase()} (${off})` : `Coupon (${off})`;
    case 'default-coupon':
      return `Sale (${off})`;
  }
}

/** The applied discount in a sentence: "the 20 % sale", "the regional price", "the 25 % team discount". */
export function discountInWords(kind: DiscountKind, bp: number): string {
  switch (kind) {
    case 'ppp':
      return `the regional price (${formatBp(bp)} off)`;
    case 'team':
      return `the ${formatBp(bp)} team discount`;
    case 'coupon':
      return `your ${formatBp(bp)} coupon`;
    case 'default-coupon':
      return `the ${formatBp(bp)} sale`;
  }
}

/** True when pricing left a discount of this kind out for this reason. */
export function notApplied(answer: QuoteAnswer, kind: DiscountKind, ...reasons: string[]): boolean {
  return answer.quote.notApplied.some((n) => n.kind === kind && (reasons.length === 0 || reasons.includes(n.reason)));
}
