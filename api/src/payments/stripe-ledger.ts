import type Stripe from 'stripe';
import { callStripe } from './stripe-call';
import type { BalanceKind, ProcessorBalanceTransaction, ProcessorLedger, ProcessorPayout } from './provider';

/** Stripe's reporting categories as our kinds; any other category is `other` (found unmatched, with its category). */
const KINDS: Record<string, BalanceKind> = {
  charge: 'charge',
  refund: 'refund',
  refund_failure: 'refund_failure',
  dispute: 'dispute',
  dispute_reversal: 'dispute_reversal',
  transfer: 'transfer',
  fee: 'fee',
  payout: 'payout',
};

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const idOf = (value: unknown): string | null =>
  value == null ? null : typeof value === 'string' ? value : ((value as { id?: string }).id ?? null);

/** The charge a balance transaction's source belongs to: the charge itself, or a refund's or dispute's charge. */
function chargeOf(source: Stripe.BalanceTransaction['source']): string | null {
  if (!source || typeof source === 'string') return null;
  if (source.object === 'charge') return source.id;
  if (source.object === 'refund' || source.object === 'dispute') return idOf(source.charge);
  return null;
}

function transactionOf(txn: Stripe.BalanceTransaction, payoutIdentifier: string | null): ProcessorBalanceTransaction {
  return {
    identifier: txn.id,
    kind: KINDS[txn.reporting_category] ?? 'other',
    sourceIdentifier: idOf(txn.source),
    chargeIdentifier: chargeOf(txn.source),
    amount: txn.amount,
    fee: txn.fee,
    net: txn.net,
    currency: txn.currency,
    created: new Date(txn.created * 1000),
    payoutIdentifier,
  };
}

/**
 * Stripe's balance and payouts for reconciliation, through the SDK's auto-pagination: the balance transactions made
 * in a period, and those of each payout made in it (Stripe names a transaction's payout only through the list's
 * `payout` filter), each with its source expanded so that a refund or dispute says its charge.
 */
export function stripeLedger(stripe: Stripe): ProcessorLedger {
  async function payouts({ from, to }: { from: Date; to: Date }): Promise<ProcessorPayout[]> {
    return callStripe('list the payouts', async () => {
      const found: ProcessorPayout[] = [];
      for await (const payout of stripe.payouts.list({ created: { gte: seconds(from), lt: seconds(to) }, limit: 100 }))
        found.push({
          identifier: payout.id,
          amount: payout.amount,
          currency: payout.currency,
          status: payout.status,
          created: new Date(payout.created * 1000),
          arrivalOn: payout.arrival_date ? new Date(payout.arrival_date * 1000) : null,
        });
      return found;
    });
  }

  async function transactions(params: Stripe.BalanceTransactionListParams, payout: string | null) {
    const found: ProcessorBalanceTransaction[] = [];
    for await (const txn of stripe.balanceTransactions.list({ ...params, limit: 100, expand: ['data.source'] }))
      found.push(transactionOf(txn, payout));
    return found;
  }

  return {
    listPayouts: payouts,

    async listBalanceTransactions(period) {
      return callStripe('list the balance transactions', async () => {
        const byId = new Map<string, ProcessorBalanceTransaction>();
        const created = { gte: seconds(period.from), lt: seconds(period.to) };
        for (const txn of await transactions({ created }, null)) byId.set(txn.identifier, txn);
        for (const payout of await payouts(period))
          for (const txn of await transactions({ payout: payout.identifier }, payout.identifier))
            byId.set(txn.identifier, txn);
        return [...byId.values()];
      });
    },

    async checkoutOfCharge(chargeIdentifier) {
      return callStripe('find the checkout of a charge', async () => {
        const charge = await stripe.charges.retrieve(chargeIdentifier);
        const intent = idOf(charge.payment_intent);
        if (!intent) return null;
        const sessions = await stripe.checkout.sessions.list({ payment_intent: intent, limit: 1 });
        return sessions.data[0]?.id ?? null;
      });
    },
  };
}
