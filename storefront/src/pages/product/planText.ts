import { formatMoney } from '../../../../api/src/shared/money';
import type { PaymentPlanQuote } from '../../api/payment-plans';

/** Instalments alike in a row (the same price and tax): "3 payments of $69", or the coupon's and then the rest. */
export interface PaymentRun {
  count: number;
  /** Which payments, counted from 1. */
  first: number;
  /** The instalment after the coupon, before tax added on top. */
  price: number;
  tax: number;
}

export function runsOf(payments: PaymentPlanQuote['payments']): PaymentRun[] {
  const runs: PaymentRun[] = [];
  payments.forEach((p, i) => {
    const price = p.amount - p.discount;
    const last = runs.at(-1);
    if (last && last.price === price && last.tax === p.tax) last.count += 1;
    else runs.push({ count: 1, first: i + 1, price, tax: p.tax });
  });
  return runs;
}

/** "3 payments of $69.00", or, priced apart: "3 payments: $55.20, then 2 of $69.00". */
export function paymentsText(runs: PaymentRun[], currency: string): string {
  const count = runs.reduce((sum, run) => sum + run.count, 0);
  const noun = count === 1 ? 'payment' : 'payments';
  if (runs.length === 1) return `${count} ${noun} of ${formatMoney(runs[0]!.price, currency)}`;
  const parts = runs.map((run) => {
    const each = formatMoney(run.price, currency);
    return run.count === 1 ? each : `${run.count} of ${each}`;
  });
  return `${count} ${noun}: ${parts.join(', then ')}`;
}

/** Which payments a run's tax line is about: "each payment", "payments 1–2", "payment 3". */
export function whichPayments(run: PaymentRun, runs: number): string {
  if (runs === 1) return 'each payment';
  if (run.count === 1) return `payment ${run.first}`;
  return `payments ${run.first}–${run.first + run.count - 1}`;
}
