import { useId } from 'react';
import type { QuoteAnswer } from '../../api/commerce';
import { countryName, discountInWords, formatPercent, notApplied } from './pricingText';

interface Props {
  answer: QuoteAnswer;
  forTeam: boolean;
  checked: boolean;
  onChange: (checked: boolean) => void;
}

/**
 * The regional (PPP) price, offered and never forced: only for a purchase for one person, from the country the
 * server detected. Says plainly what it costs in freedom: access only from that country.
 */
export function RegionalPriceOption({ answer, forTeam, checked, onChange }: Props) {
  const id = useId();
  if (forTeam || !answer.ppp) {
    // The quote still names the buyer's regional price when a team purchase ruled it out.
    if (forTeam && notApplied(answer, 'ppp', 'team-purchase', 'quantity-above-one')) {
      return (
        <p className="hint">Regional prices are for a purchase for one person, so they do not apply to team seats.</p>
      );
    }
    return null;
  }
  const country = countryName(answer.ppp.country);
  // Opted in, but another discount saves more: that one applies and the purchase stays unrestricted.
  const winner = checked && notApplied(answer, 'ppp', 'saves-less') ? answer.quote.discount : null;

  return (
    <div className="ppp-option">
      <label className="check">
        <input
          type="checkbox"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-describedby={`${id}-terms`}
        />
        {`Use the regional price for ${country} (${formatPercent(answer.ppp.percent)} off)`}
      </label>
      <p id={`${id}-terms`} className="hint check-hint">
        A regional-price purchase works only from {country}; you can unlock full access later by paying the difference.
      </p>
      <p role="status" className="hint check-hint status-message">
        {winner
          ? `${capitalize(discountInWords(winner.kind, winner.bp))} saves you more than the regional price, so we applied it instead and your purchase is not restricted.`
          : ''}
      </p>
    </div>
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
