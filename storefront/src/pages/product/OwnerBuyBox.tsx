import { useId, useState } from 'react';
import { Link } from 'wouter';
import { saleBlocker, type StoreProduct, type StoreProductPage } from '../../api/catalog';
import type { PurchaseChoice } from '../../api/commerce';
import { coursePath } from '../../api/learning';
import { formatMoney } from '../../../../api/src/shared/money';
import { OwnedCourse } from './OwnedCourse';
import { PricingWidget, type BuyMode } from './PricingWidget';
import { useQuote } from './useQuote';

/** A single copy at the full price: what a regional purchase would be unlocked by (docs/domain.md §5.3). */
const SINGLE_COPY: PurchaseChoice = { quantity: 1, team: false, coupon: null, ppp: false };

/**
 * The buy box of someone who holds the product. A regional-price (Restricted) owner is offered the unlock first:
 * the full price less what they paid, so the page never sends them back to the lesson that sent them here. Every
 * owner can go to the course, and buy for others: seats for a team, or one seat as a gift.
 */
export function OwnerBuyBox({ product, products }: { product: StoreProductPage; products: StoreProduct[] }) {
  // The quote knows what the owner holds: an upgrade from this very product is a regional purchase to unlock.
  const { answer, error } = useQuote(product.id, SINGLE_COPY);
  if (!answer && !error) {
    return (
      <p role="status" className="loading price-placeholder">
        Loading your options…
      </p>
    );
  }
  const unlock = answer?.upgrade?.fromProductId === product.id ? answer : null;
  return (
    <>
      {unlock ? (
        <UnlockOffer
          product={product}
          products={products}
          price={formatMoney(unlock.quote.finalPrice, unlock.currency)}
        />
      ) : (
        <OwnedCourse product={product} />
      )}
      {!saleBlocker(product) && <BuyForOthers product={product} products={products} />}
    </>
  );
}

function UnlockOffer({
  product,
  products,
  price,
}: {
  product: StoreProductPage;
  products: StoreProduct[];
  price: string;
}) {
  const main = product.curriculum[0] ?? product.courses[0];
  return (
    <div className="owned-box unlock-box">
      <h2 className="owned-title">Unlock full access for {price}</h2>
      <p>
        You own {product.name} at a regional price, so it opens only in the country you bought it in. Pay the difference
        to study from anywhere: what you paid comes off the full price.
      </p>
      <PricingWidget product={product} products={products} mode="unlock" />
      {main && (
        <p className="hint">
          In the country you bought it in? <Link to={coursePath(main)}>Go to your course</Link>
        </p>
      )}
    </div>
  );
}

/** "Buy for your team" / "Give as a gift": each opens its own pricing below the buttons. */
function BuyForOthers({ product, products }: { product: StoreProductPage; products: StoreProduct[] }) {
  const id = useId();
  const [mode, setMode] = useState<Extract<BuyMode, 'team' | 'gift'> | null>(null);
  const toggle = (next: 'team' | 'gift') => setMode((current) => (current === next ? null : next));
  return (
    <section className="buy-for-others" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Buy for someone else</h2>
      <div className="actions">
        <button
          type="button"
          className="button-quiet"
          aria-expanded={mode === 'team'}
          aria-controls={`${id}-panel`}
          onClick={() => toggle('team')}
        >
          Buy for your team
        </button>
        <button
          type="button"
          className="button-quiet"
          aria-expanded={mode === 'gift'}
          aria-controls={`${id}-panel`}
          onClick={() => toggle('gift')}
        >
          Give as a gift
        </button>
      </div>
      <div id={`${id}-panel`}>
        {/* Keyed: the team's seats and the gift's one seat are priced apart. */}
        {mode && <PricingWidget key={mode} product={product} products={products} mode={mode} />}
      </div>
    </section>
  );
}
