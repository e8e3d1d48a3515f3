import { Link } from 'wouter';
import { productPath } from '../api/catalog';
import { getQuote, type QuoteAnswer } from '../api/commerce';
import type { CourseView } from '../api/learning';
import { formatMoney } from '../../../api/src/shared/money';
import { useAsync } from '../useAsync';
import { BuyLinks } from './BuyLinks';

type Products = CourseView['products'];

/** A single copy at the full price: what unlocks a regional purchase (docs/domain.md §5.3). */
const SINGLE_COPY = { quantity: 1, team: false, coupon: null, ppp: false };

/**
 * For a regional-price owner abroad: "Unlock full access for $26.95", the full price less what they paid, leading to
 * the product page, which offers the same unlock. The price is the API's quote for each product; a product they
 * hold no regional copy of (or a quote that failed) is offered as BuyLinks offers it.
 */
export function UnlockLinks({ products }: { products: Products }) {
  const quotes = useAsync(
    () => Promise.all(products.map((ref) => getQuote(ref.id, SINGLE_COPY).catch((): QuoteAnswer | null => null))),
    [products.map((p) => p.id).join()],
  );
  if (quotes.status === 'loading') return <p className="loading">Working out your price…</p>;
  const answers = quotes.status === 'ready' ? quotes.data : [];
  const unlocks = products.flatMap((ref, i) => {
    const answer = answers[i];
    return answer?.upgrade?.fromProductId === ref.id ? [{ ref, answer }] : [];
  });
  if (unlocks.length === 0) return <BuyLinks products={products} label={(name) => `Buy full access: ${name}`} />;
  return (
    <p className="actions">
      {unlocks.map(({ ref, answer }, i) => (
        <Link key={ref.id} className={i === 0 ? 'button-link' : 'button-link button-link-quiet'} to={productPath(ref)}>
          {`Unlock full access for ${formatMoney(answer.quote.finalPrice, answer.currency)}`}
          {unlocks.length > 1 && `: ${ref.name}`}
        </Link>
      ))}
    </p>
  );
}
