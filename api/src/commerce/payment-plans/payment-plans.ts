import { bindDeps } from '../../shared/bind-deps';
import type { PaymentPlanDeps } from './deps';
import { buyPaymentPlan } from './buy';
import { quotePaymentPlan } from './quote';

/** Courses bought in instalments (docs/domain.md §23); their subscriptions' events are recorded with memberships'. */
export function paymentPlanService(deps: PaymentPlanDeps) {
  const step = bindDeps(deps);
  return { buy: step(buyPaymentPlan), quote: step(quotePaymentPlan) };
}
