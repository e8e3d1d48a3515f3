import type Stripe from 'stripe';
import { callStripe } from '../../payments/stripe-call';

/**
 * The transfer Stripe already made for a payout, found by its transfer group (the payout's id), or null. Idempotency
 * keys last about a day and runs are a month apart: this, not the key, keeps a payout whose transfer was made but
 * whose answer was lost from being sent a second time.
 */
export async function transferOfPayout(stripe: Stripe, payoutId: string): Promise<Stripe.Transfer | null> {
  const found = await callStripe("look for a payout's transfer", () =>
    stripe.transfers.list({ transfer_group: payoutId, limit: 1 }),
  );
  return found.data[0] ?? null;
}
