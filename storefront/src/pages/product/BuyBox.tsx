import { useState } from 'react';
import { listProducts, saleBlocker, type StoreProductPage } from '../../api/catalog';
import type { PlanTerms } from '../../api/payment-plans';
import { useAsync } from '../../useAsync';
import { useOwnedProducts } from '../useOwnedProducts';
import { OwnerBuyBox } from './OwnerBuyBox';
import { PaymentPlanOption } from './PaymentPlanOption';
import { PricingWidget } from './PricingWidget';
import { SaleCountdown } from './SaleCountdown';

/**
 * The side of the sales page that sells: the running sale with its countdown and the pricing widget, or, for someone
 * who holds the product already, the way into their course, the unlock of a regional purchase, and buying for others.
 */
export function BuyBox({ product }: { product: StoreProductPage }) {
  const owned = useOwnedProducts();
  // The pricing widget names the courses an upgrade credit comes from: the catalog, asked beside the page.
  const catalog = useAsync(listProducts);
  const [saleOver, setSaleOver] = useState(false);
  // The coupon and regional price chosen for the one-time price price the plan too.
  const [terms, setTerms] = useState<PlanTerms>({ coupon: null, ppp: false });
  const known = catalog.status === 'ready' ? catalog.data : [product];
  if (owned?.has(product.id)) return <OwnerBuyBox product={product} products={known} />;
  const { sale } = product;
  return (
    <>
      {sale?.endsAt && !saleBlocker(product) && (
        <SaleCountdown sale={sale} endsAt={sale.endsAt} onEnded={() => setSaleOver(true)} />
      )}
      {/* Once the sale is over the widget starts again, so its quote is the price after it. */}
      <PricingWidget key={saleOver ? 'after-sale' : 'now'} product={product} products={known} onTerms={setTerms} />
      {product.paymentPlan && !saleBlocker(product) && (
        <PaymentPlanOption product={product} plan={product.paymentPlan} terms={terms} />
      )}
    </>
  );
}
