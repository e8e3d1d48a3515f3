import type { CommerceDeps } from '../deps';
import type { PurchaseLifecycle } from '../purchases/lifecycle';
import type { CommerceLimits } from './limits';
import type { QuoteService } from './quotes';

/** What checkout is built from (by the composition root); each of its functions takes the part it uses. */
export interface CheckoutDeps extends CommerceDeps {
  quotes: QuoteService;
  refunds: Pick<PurchaseLifecycle, 'completeRefund'>;
  limits: Pick<CommerceLimits, 'checkoutStart' | 'couponHoldsPerNetwork'>;
}
