import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { formatMoney } from '../../../../api/src/shared/money';
import { taxLineText, type TaxShown } from '../../../../api/src/shared/tax-text';
import type { StoreProductPage } from '../../api/catalog';
import { isApiError } from '../../api/client';
import { buyPaymentPlan, quotePaymentPlan, type PaymentPlanQuote, type PlanTerms } from '../../api/payment-plans';
import { BusyStatus } from '../../ActionFeedback';
import { useHere } from '../../navigation';
import { loginPath } from '../../redirects';
import { useSession } from '../../session';
import { useAction } from '../../useAction';
import { paymentsText, runsOf, whichPayments, type PaymentRun } from './planText';

type Plan = NonNullable<StoreProductPage['paymentPlan']>;

/**
 * The plan priced for the buyer's terms, again on every change; a coupon the plan refuses is dropped (the plan is then
 * priced without it, as Buy will buy it). Until the first answer, the plan's own price (the server-rendered page's).
 */
function usePlanQuote(productId: string, terms: PlanTerms): { quote: PaymentPlanQuote | null; terms: PlanTerms } {
  const [state, setState] = useState<{ quote: PaymentPlanQuote | null; terms: PlanTerms }>({ quote: null, terms });
  const key = JSON.stringify(terms);
  useEffect(() => {
    let current = true;
    const ask = async (asked: PlanTerms): Promise<void> => {
      try {
        const quote = await quotePaymentPlan(productId, asked);
        if (current) setState({ quote, terms: asked });
      } catch (caught) {
        if (current && asked.coupon && isApiError(caught)) await ask({ ...asked, coupon: null });
      }
    };
    void ask(terms);
    return () => {
      current = false;
    };
    // The terms are compared by value: a new object with the same coupon and regional price asks nothing.
  }, [productId, key]);
  return state;
}

/** Each run's tax, as the server works it out for each instalment: inside it, or added on top. */
function runTax(quote: PaymentPlanQuote, run: PaymentRun): TaxShown | null {
  if (!quote.tax || run.tax <= 0) return null;
  return { ...quote.tax, amount: run.tax, reverseCharge: false };
}

/**
 * The course in monthly instalments, beside its one-time price (docs/domain.md §23): "3 payments of $210" priced as
 * the course is (the coupon typed above for the payments it covers, or the regional price), with each payment's tax,
 * all as the server quotes and the provider will charge them; bought at the provider's page. The course opens with
 * the first payment.
 */
export function PaymentPlanOption({
  product,
  plan,
  terms,
}: {
  product: StoreProductPage;
  plan: Plan;
  terms: PlanTerms;
}) {
  const { state, refresh } = useSession();
  const [, navigate] = useLocation();
  const here = useHere();
  const action = useAction((caught) =>
    isApiError(caught, 'unauthenticated') ? null : caught instanceof Error ? caught.message : 'Please try again.',
  );
  const { quote, terms: priced } = usePlanQuote(product.id, terms);
  const currency = quote?.currency ?? plan.currency;
  const runs = quote
    ? runsOf(quote.payments)
    : [{ count: plan.instalments, first: 1, price: plan.instalmentAmount, tax: 0 }];
  const first = formatMoney(quote?.payments[0]?.charged ?? plan.instalmentAmount, currency);
  const total = formatMoney(quote?.total ?? plan.instalmentAmount * plan.instalments, currency);

  async function handleBuy() {
    if (action.busy) return;
    if (state.status !== 'signed-in') {
      navigate(loginPath(here));
      return;
    }
    await action.run(async () => {
      try {
        window.location.assign(await buyPaymentPlan(product.id, priced));
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
      <p className="price">{paymentsText(runs, currency)}</p>
      {quote &&
        runs.map((run) => {
          const tax = runTax(quote, run);
          return (
            tax && (
              <p className="price-tax" key={run.first}>
                {taxLineText(tax, currency)} {tax.inclusive ? 'in' : 'on'} {whichPayments(run, runs.length)}
              </p>
            )
          );
        })}
      {quote?.coupon && (
        <p className="hint">
          {quote.coupon.code}: {quote.coupon.percent} % off{' '}
          {quote.coupon.periods === null
            ? 'every payment'
            : quote.coupon.periods === 1
              ? 'the first payment'
              : `the first ${quote.coupon.periods} payments`}
        </p>
      )}
      {quote?.pppPercent && <p className="hint">Regional price: {quote.pppPercent} % off every payment</p>}
      <p className="hint">
        {first} now, then each month until {total} is paid. The course opens with the first payment; a plan cannot be
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
