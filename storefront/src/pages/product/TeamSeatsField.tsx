import { useId, type Ref } from 'react';
import type { QuoteAnswer } from '../../api/commerce';
import { discountInWords, formatBp, tierFor, tierRange } from './pricingText';
import { plural } from '../../../../api/src/shared/words';
import { SeatsField } from './SeatsField';

export const MAX_SEATS_PER_PURCHASE = 100;

/** The seat count typed in the field, or why it cannot be priced. */
export function parseSeats(text: string, max: number): { seats: number; error: null } | { seats: null; error: string } {
  const trimmed = text.trim();
  if (!trimmed) return { seats: null, error: `Enter how many seats you need (1–${max}).` };
  const seats = Number(trimmed);
  if (!Number.isInteger(seats)) return { seats: null, error: 'Enter a whole number of seats.' };
  if (seats < 1) return { seats: null, error: 'Buy at least 1 seat.' };
  if (seats > max) {
    return {
      seats: null,
      error:
        max < MAX_SEATS_PER_PURCHASE
          ? `Only ${plural(max, 'seat is', 'seats are')} available.`
          : `You can buy up to ${max} seats at once.`,
    };
  }
  return { seats, error: null };
}

interface Props {
  /** Seats for a team is what is being bought (an owner's "Buy for your team"): no "For my team" box to untick. */
  fixed?: boolean;
  forTeam: boolean;
  onForTeamChange: (forTeam: boolean) => void;
  seatsText: string;
  onSeatsTextChange: (text: string) => void;
  onSeatsBlur: () => void;
  /** The valid seat count, or null while the field is invalid. */
  seats: number | null;
  seatsError: string | null;
  maxSeats: number;
  answer: QuoteAnswer | null;
  seatsRef?: Ref<HTMLInputElement>;
}

/** "For my team" and the seat count, with the team tiers and how many more seats reach the next one. */
export function TeamSeatsField({
  fixed = false,
  forTeam,
  onForTeamChange,
  seatsText,
  onSeatsTextChange,
  onSeatsBlur,
  seats,
  seatsError,
  maxSeats,
  answer,
  seatsRef,
}: Props) {
  const id = useId();
  const existing = answer?.team?.existingSeats ?? 0;
  const total = seats === null ? null : seats + existing;
  /** The team tiers, from the API (pricing's own table); the widget renders once the first quote is in. */
  const tiers = answer?.teamTiers ?? [];

  return (
    <div className="team-field">
      {!fixed && (
        <label className="check">
          <input
            type="checkbox"
            checked={forTeam}
            onChange={(event) => onForTeamChange(event.target.checked)}
            aria-describedby={`${id}-about`}
          />
          For my team
        </label>
      )}
      <p id={`${id}-about`} className={fixed ? 'hint' : 'hint check-hint'}>
        Buy seats for other people: you get an invite link to share, and the more seats, the bigger the discount.
      </p>
      {forTeam && (
        <div className="team-details">
          <SeatsField
            label="Seats"
            id={id}
            inputRef={seatsRef}
            max={maxSeats}
            value={seatsText}
            onChange={onSeatsTextChange}
            onBlur={onSeatsBlur}
            error={seatsError}
            hint={total !== null && seats !== null && tierHint(total, seats, existing, maxSeats, answer)}
            hintId={`${id}-seats-hint`}
            noteClassName="seats-note"
          />
          <ul className="tiers" aria-label="Team discounts">
            {tiers.map((tier) => {
              const active = total !== null && tierFor(tiers, total) === tier;
              return (
                <li key={tier.min} aria-current={active ? 'true' : undefined}>
                  {tierRange(tier)}: {formatBp(tier.bp)} off
                </li>
              );
            })}
          </ul>
          {existing > 0 && (
            <p className="hint">
              You already bought {plural(existing, 'seat', 'seats')} for this course; they count toward the team
              discount.
            </p>
          )}
        </div>
      )}
    </div>
  );
}

/** "Add 2 more seats for 15 % off", and whether the tier reached is the discount that applies. */
function tierHint(
  total: number,
  seats: number,
  existing: number,
  maxSeats: number,
  answer: QuoteAnswer | null,
): string {
  // Another discount (the sale, an entered coupon) wins over a tier that saves no more; ties go to the coupon.
  const discount = answer?.quote.discount;
  const saleBp = answer?.sale ? Math.round(answer.sale.percent * 100) : 0;
  const couponBp = discount?.kind === 'coupon' ? discount.bp : 0;
  const rival = Math.max(saleBp, couponBp);
  const rivalWords =
    couponBp >= saleBp ? discountInWords('coupon', couponBp) : discountInWords('default-coupon', saleBp);

  const parts: string[] = [];
  const tiers = answer?.teamTiers ?? [];
  const current = tierFor(tiers, total);
  const counted = existing > 0 ? `${total} seats in all` : plural(total, 'seat', 'seats');
  if (current && current.bp > rival) parts.push(`${counted} get the ${formatBp(current.bp)} team discount.`);
  else if (current) parts.push(`${counted} earn ${formatBp(current.bp)} off, but ${rivalWords} saves more.`);

  const next = tiers.find((tier) => tier.min > total && tier.bp > rival);
  const more = next ? next.min - total : 0;
  if (next && seats + more <= maxSeats)
    parts.push(`Add ${more} more ${more === 1 ? 'seat' : 'seats'} for ${formatBp(next.bp)} off.`);
  return parts.join(' ');
}
