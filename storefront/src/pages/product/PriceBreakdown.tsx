import type { QuoteAnswer } from '../../api/commerce';
import { formatMoney } from '../../../../api/src/shared/money';
import { ratePercent, taxLineText } from '../../../../api/src/shared/tax-text';
import { countryName, discountLabel } from './pricingText';
import { plural } from '../../../../api/src/shared/words';

interface Props {
  answer: QuoteAnswer;
  /** The answer is for an earlier choice (a new one is loading, or loading it failed): shown dimmed. */
  stale: boolean;
  pending: boolean;
  /** The upgrade credit's line: "Credit for <course> you own". */
  creditLabel: string;
}

/**
 * The price, announced politely whenever it changes: the final price large, the full price struck through, and
 * one line per difference (upgrade credit, the one discount) so the lines add up to the total.
 */
export function PriceBreakdown({ answer, stale, pending, creditLabel }: Props) {
  const { quote, currency } = answer;
  const money = (cents: number) => formatMoney(cents, currency);
  const discounted = quote.finalPrice < quote.fullPrice;
  const perSeat = quote.finalPrice / quote.quantity;
  const seats = answer.team !== null;
  // Tax on top of the price (a US state's sales tax) is charged with it: the total says what is paid.
  const taxOnTop = quote.tax !== null && !quote.tax.inclusive && quote.tax.amount > 0;

  return (
    <div className="price-box-frame">
      <section
        className={stale ? 'price-box is-stale' : 'price-box'}
        aria-label="Price"
        aria-live="polite"
        aria-atomic="true"
        aria-busy={pending}
      >
        <p className="price-line">
          <span className="price-final">{quote.free ? 'Free' : money(quote.finalPrice)}</span>
          {/* Hidden from screen readers: the breakdown below reads the full price out once. */}
          {discounted && (
            <s className="price-full" aria-hidden="true">
              {money(quote.fullPrice)}
            </s>
          )}
        </p>
        {seats && !quote.free && (
          <p className="price-per-seat">
            {Number.isInteger(perSeat) ? '' : 'about '}
            {money(Math.round(perSeat))} per seat · {plural(quote.quantity, 'seat', 'seats')}
          </p>
        )}
        {discounted && (
          <dl className="breakdown">
            <div>
              <dt>{seats ? `Full price (${quote.quantity} × ${money(quote.unitAmount)})` : 'Full price'}</dt>
              <dd>{money(quote.fullPrice)}</dd>
            </div>
            {quote.credit > 0 && (
              <div>
                <dt>{creditLabel}</dt>
                <dd>−{money(quote.credit)}</dd>
              </div>
            )}
            {quote.discount && (
              <div>
                <dt>{discountLabel(quote.discount.kind, quote.discount.bp, answer)}</dt>
                <dd>−{money(quote.discount.amount)}</dd>
              </div>
            )}
            {taxOnTop && quote.tax && (
              <div>
                <dt>
                  {quote.tax.name} ({ratePercent(quote.tax.rate)})
                </dt>
                <dd>+{money(quote.tax.amount)}</dd>
              </div>
            )}
            <div className="breakdown-total">
              <dt>Total</dt>
              <dd>{quote.free ? 'Free' : money(quote.total)}</dd>
            </div>
          </dl>
        )}
        {quote.tax && !quote.free && <p className="price-tax">{taxLineText(quote.tax, currency)}</p>}
        {taxOnTop && !discounted && (
          <p className="price-tax-total">
            Total <strong>{money(quote.total)}</strong>
          </p>
        )}
        {answer.billing.regionRequired && !quote.free && (
          <p className="price-tax-note">Choose your state or province below to see the tax.</p>
        )}
        {answer.billing.postalCodeRequired && !answer.billing.regionRequired && !quote.free && (
          <p className="price-tax-note">
            Enter your {answer.billing.country === 'US' ? 'ZIP' : 'postal'} code below to see the tax.
          </p>
        )}
        {quote.restricted && (
          <p className="price-restricted">
            Regional price: this purchase will be restricted. The course will work only from{' '}
            {countryName(answer.ppp?.country ?? answer.country ?? '')}.
          </p>
        )}
      </section>
      <span className="price-updating loading" hidden={!pending}>
        Updating…
      </span>
    </div>
  );
}
