import type { CheckoutDeps } from './checkout-deps';
import { dueCheckouts, extendExpiry, type FoundCheckout } from './checkout-rows';
import { CHECKOUT_MS, deadlineAfter } from './deadline';
import { cancelCheckout, settle } from './settle';

/** Open checkouts the expiry sweep reads at a time (each may ask the provider twice), and at most how many reads a run. */
const EXPIRY_BATCH = 50;
const EXPIRY_BATCHES = 20;

type ExpiryDeps = Pick<CheckoutDeps, 'db' | 'clock' | 'config' | 'logger' | 'outbox' | 'provider' | 'refunds'>;

/**
 * Ends one checkout that outlived its time; true when it ended unpaid. A provider that can end its sessions is asked
 * to first, and decides once between a payment landing at the same moment and the expiry: paid → fulfilled as any
 * payment is (a limited coupon's reserved use is kept), canceled → canceled here, the use given back by the
 * conditional update of `cancelCheckout`; one still being paid for (a payment under way) is looked at again a
 * checkout's time later. A provider that cannot end them is only asked whether it was paid: if not, our deadline
 * ends the checkout, and a payment that still comes is settled late (settle.ts).
 */
async function expireOne(deps: ExpiryDeps, found: FoundCheckout): Promise<boolean> {
  const { db, clock, provider } = deps;
  // Free, or its provider session never recorded (the start failed midway): nothing can be paid for it.
  if (!found.sessionIdentifier) {
    await cancelCheckout(db, found.id);
    return true;
  }
  if (!provider.expireCheckout) {
    const settled = await settle(deps, found);
    return settled.status === 'open' ? cancelCheckout(db, found.id) : settled.status === 'canceled';
  }
  const final = await provider.expireCheckout(found.sessionIdentifier);
  const settled = await settle(deps, found, undefined, final);
  if (settled.status === 'open') await extendExpiry(db, found.id, deadlineAfter(clock.now()));
  return settled.status === 'canceled';
}

/**
 * The expiry sweep (run every minute beside the requests): open checkouts whose time passed are ended, and their
 * reserved coupon uses come back. One whose provider session was never recorded waits a checkout's time more, so
 * that a session created late at the provider has expired there too. Answers how many ended unpaid.
 */
export async function expireAbandoned(deps: ExpiryDeps): Promise<number> {
  const { db, clock, logger } = deps;
  const now = clock.now();
  const tried: string[] = [];
  let canceled = 0;
  for (let batch = 0; batch < EXPIRY_BATCHES; batch++) {
    const graceEnd = new Date(now.getTime() - CHECKOUT_MS);
    const due = await dueCheckouts(db, now, graceEnd, tried, EXPIRY_BATCH);
    for (const found of due) {
      tried.push(found.id);
      try {
        if (await expireOne(deps, found)) canceled++;
      } catch (error) {
        // The provider unreachable, say: the checkout stays open (its use reserved) until a later sweep.
        logger.warn({ err: error, checkoutId: found.id }, 'expiring a checkout failed; the next sweep retries');
      }
    }
    if (due.length < EXPIRY_BATCH) break;
  }
  return canceled;
}
