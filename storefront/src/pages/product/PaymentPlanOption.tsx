import { useLocation } from 'wouter';
import { formatMoney } from '../../../../api/src/shared/money';
import { taxLineText, type TaxShown } from '../../../../api/src/shared/tax-text';
import type { StoreProductPage } from '../../api/catalog';
import { isApiError } from '../../api/client';
import type { PurchaseChoice, QuoteAnswer } from '../../api/commerce';
import { buyPaymentPlan } from '../../api/payment-plans';
import { BusyStatus } from '../../ActionFeedback';
import { useHere } from '../../navigation';
import { loginPath } from '../../redirects';
import { useSession } from '../../session';
import { useAction } from '../../useAction';
import { useQuote } from './useQuote';

type Plan = NonNullable<StoreProductPage['paymentPlan']>;

/** The plan is bought for one learner at its own price, taxed where the buyer is detected: a plain quote's place. */
const PLAN_CHOICE: PurchaseChoice = { quantity: 1, team: false, ppp: false, coupon: null };

/**
 * Each instalment's tax, at the rate the one-time price is quoted with: inside it, or added on top (the provider bills
 * the instalment plus tax). None where the quote has none, or is reverse-charged (the plan's instalments are not).
 */
function instalmentTax(answer: QuoteAnswer | null, plan: Plan): TaxShown | null {
  const tax = answer?.quote.tax;
  if (!tax || tax.reverseCharge || answer.currency !== plan.currency) return null;
  // In minor units, rounded half up as every charge's tax is (the server's tax amounts, which no app bundles).
  const price = plan.instalmentAmount;
  const amount = Math.round((price * tax.rate) / (tax.inclusive ? 10_000 + tax.rate : 10_000));
  return amount > 0 ? { ...tax, amount } : null;
}

/**
 * The course in monthly instalments, beside its one-time price (docs/domain.md §23): "3 payments of $210", with each
 * payment's tax said as the one-time price's is, bought at the provider's page. The course opens with the first
 * payment.
 */
export function PaymentPlanOption({ product, plan }: { product: StoreProductPage; plan: Plan }) {
  const { state, refresh } = useSession();
  const [, navigate] = useLocation();
  const here = useHere();
  const action = useAction((caught) =>
    isApiError(caught, 'unauthenticated') ? null : caught instanceof Error ? caught.message : 'Please try again.',
  );
  const each = formatMoney(plan.instalmentAmount, plan.currency);
  const total = formatMoney(plan.instalmentAmount * plan.instalments, plan.currency);
  const tax = instalmentTax(useQuote(product.id, PLAN_CHOICE).answer, plan);

  async function handleBuy() {
    if (action.busy) return;
    if (state.status !== 'signed-in') {
      navigate(loginPath(here));
      return;
    }
    await action.run(async () => {
      try {
        window.location.assign(await buyPaymentPlan(product.id));
      } catch (caught) {
        // The session ended meanwhile: signing in again comes back here.
        if (isApiError(caught, 'unauthenticated')) {
          refresh();
          navigate(loginPath(here));
        }
        throw caught;
      }
    });
  }

  return (
    <div className="pricing-widget payment-plan-option">
      <p className="price">
        {plan.instalments} payments of {each}
      </p>
      {tax && (
        <p className="price-tax">
          {taxLineText(tax, plan.currency)} {tax.inclusive ? 'in' : 'on'} each payment
        </p>
      )}
      <p className="hint">
        {each} now, then each month until {total} is paid. The course opens with the first payment; a plan cannot be
        cancelled, and the course can be given away or upgraded once paid in full.
      </p>
      <div className="actions">
        <button type="button" className="button-plan" onClick={handleBuy} aria-disabled={action.busy || undefined}>
          Pay in {plan.instalments} instalments
        </button>
        <BusyStatus busy={action.busy} text="Opening the payment page…" />
      </div>
      {state.status === 'signed-out' && <p className="hint">You sign in first, then pay the first instalment.</p>}
      {action.error && (
        <p role="alert" className="notice notice-error">
          {action.error}
        </p>
      )}
    </div>
  );
}
