import { saleBlocker, type StoreProduct } from '../api/catalog';
import { formatMoney } from '../../../api/src/shared/money';

/**
 * A catalog card's price: the sale's price beside the list price while a sale runs, nothing to act on for a course
 * that cannot be bought (its Availability says why), and "You own this course" for one the learner holds.
 */
export function CardPrice({ product, owned }: { product: StoreProduct; owned: boolean }) {
  if (owned) {
    return (
      <p className="owned-note">
        <span aria-hidden="true">✓ </span>You own this course
      </p>
    );
  }
  const { price, sale } = product;
  if (!price || saleBlocker(product)) return null;
  if (!sale) return <p className="price">{formatMoney(price.unitAmount, price.currency)}</p>;
  return (
    <p className="price price-sale">
      <span className="visually-hidden">Sale price: </span>
      {formatMoney(sale.unitAmount, price.currency)}
      <s>
        <span className="visually-hidden">, was </span>
        {formatMoney(price.unitAmount, price.currency)}
      </s>
      <span className="badge">{sale.percent} % off</span>
    </p>
  );
}
