import { Link } from 'wouter';
import { listProducts, productPath, saleBlocker } from '../api/catalog';
import type { CourseView } from '../api/learning';
import { blockedLabel } from '../pages/Availability';
import { useReaderClock } from '../readerClock';
import { useAsync } from '../useAsync';

type Products = CourseView['products'];

/**
 * Links to buy each product that grants the course (most courses have one or two), as the catalog says they stand:
 * "Buy …" only for what can be bought now; a sold-out or closed product leads to its page for the waitlist instead.
 * Nothing is offered until the catalog answered (a Buy button must not flash on a sold-out course); if it cannot
 * be read, the links stay (the checkout refuses what is not on sale).
 */
export function BuyLinks({ products, label }: { products: Products; label: (name: string) => string }) {
  const catalog = useAsync(listProducts);
  const clock = useReaderClock();
  if (products.length === 0) return <p>This course is not on sale right now.</p>;
  if (catalog.status === 'loading') return <p className="loading">Checking what is on sale…</p>;
  const known = catalog.status === 'ready' ? catalog.data : [];
  const items = products.map((ref) => {
    const product = known.find((p) => p.id === ref.id);
    const blocker = product ? saleBlocker(product) : null;
    return {
      ref,
      text: product && blocker ? `${ref.name}: ${blockedLabel(product, blocker, clock)} — join the waitlist` : null,
    };
  });
  const firstOnSale = items.findIndex((item) => item.text === null);
  return (
    <p className="actions">
      {items.map(({ ref, text }, i) => (
        <Link
          key={ref.id}
          className={i === firstOnSale ? 'button-link' : 'button-link button-link-quiet'}
          to={productPath(ref)}
        >
          {text ?? label(ref.name)}
        </Link>
      ))}
    </p>
  );
}
