import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { listProducts, productPath, saleBlocker } from '../../api/catalog';
import { startCheckout } from '../../api/commerce';
import type { TeamView } from '../../api/teams';
import { formatMoney } from '../../../../api/src/shared/money';
import { formatBp } from '../product/pricingText';
import { plural } from '../../../../api/src/shared/words';
import { MAX_SEATS_PER_PURCHASE, parseSeats } from '../product/TeamSeatsField';
import { useQuote } from '../product/useQuote';
import { CheckoutSubmit } from '../product/CheckoutSubmit';
import { SeatsField } from '../product/SeatsField';
import { failedTo } from '../../useConfirmation';
import { useAsync } from '../../useAsync';
import { blockedLabel } from '../Availability';

/**
 * More seats, when the course can be bought: a sold-out or closed course says so and leads to its page (and its
 * waitlist) instead. Nothing is offered until the catalog answered; if it cannot be read, the form stays (the checkout
 * refuses what is not on sale).
 */
export function BuyMoreSeats({ product }: { product: TeamView['product'] }) {
  const id = useId();
  const catalog = useAsync(listProducts);
  if (catalog.status === 'loading') return null;
  const listed = catalog.status === 'ready' ? catalog.data.find((p) => p.id === product.id) : undefined;
  const blocker = listed ? saleBlocker(listed) : catalog.status === 'ready' ? 'not-on-sale' : null;
  if (!blocker) return <MoreSeatsForm product={product} />;
  return (
    <section className="team-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>More seats</h2>
      <p>
        {listed ? `${blockedLabel(listed, blocker)}: ` : ''}no more seats can be bought for this course right now.{' '}
        {listed && <Link to={productPath(listed)}>Join the waitlist on the course page</Link>}
      </p>
    </section>
  );
}

/** More seats on the same team: the team checkout, priced first (the seats already bought count toward the tiers). */
function MoreSeatsForm({ product }: { product: TeamView['product'] }) {
  const id = useId();
  const [seatsText, setSeatsText] = useState('1');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const seatsRef = useRef<HTMLInputElement>(null);
  const parsed = parseSeats(seatsText, MAX_SEATS_PER_PURCHASE);
  const seatsError = seatsText.trim() || touched ? parsed.error : null;
  const {
    answer,
    pending,
    error: quoteError,
  } = useQuote(
    product.id,
    parsed.seats === null ? null : { quantity: parsed.seats, team: true, coupon: null, ppp: false },
  );

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setError(null);
    if (parsed.seats === null) {
      setTouched(true);
      seatsRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const { url } = await startCheckout({ productId: product.id, quantity: parsed.seats, team: true, ppp: false });
      window.location.assign(url);
    } catch (caught) {
      setBusy(false);
      setError(failedTo('start the checkout')(caught));
    }
  }

  let price = '';
  if (parsed.seats !== null && answer && !pending && !quoteError) {
    const { quote } = answer;
    const discount = quote.discount?.kind === 'team' ? ` with the ${formatBp(quote.discount.bp)} team discount` : '';
    price = `${plural(parsed.seats, 'more seat', 'more seats')}: ${formatMoney(quote.finalPrice, answer.currency)}${discount}.`;
  }

  return (
    <section className="team-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Buy more seats</h2>
      <form className="stack buy-more" onSubmit={handleSubmit} noValidate aria-busy={busy}>
        <SeatsField
          label="Seats to add"
          id={id}
          inputRef={seatsRef}
          max={MAX_SEATS_PER_PURCHASE}
          value={seatsText}
          onChange={setSeatsText}
          onBlur={() => setTouched(true)}
          error={seatsError}
          hint={
            quoteError
              ? 'The price is shown at checkout.'
              : price || (parsed.seats !== null ? 'Working out the price…' : '')
          }
          hintId={`${id}-price`}
          liveHint
        />
        <CheckoutSubmit label="Buy more seats" busy={busy} error={error} />
        <p className="hint">The new seats join this team: the same invite link lets more people in.</p>
      </form>
    </section>
  );
}
