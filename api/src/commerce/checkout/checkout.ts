import type { CheckoutDeps } from './checkout-deps';
import { checkoutIdOfSession, type EventKey } from './checkout-rows';
import { expireAbandoned } from './expire';
import { checkoutOutcome } from './outcome';
import { cancelCheckout, fulfilCheckout, settleSession, type Alongside } from './settle';
import { settleSessions, type SessionAnswer, type SessionSettlement } from './settle-batch';
import { startCheckout, type CheckoutInput } from './start';

export type { Alongside };
export { CHECKOUT_MINUTES } from './deadline';

/**
 * Checkout and fulfilment (docs/domain.md §6.2), one module per operation: a checkout is started and quoted by us
 * (start.ts), paid at the provider's hosted session, settled exactly once by whoever asks first (settle.ts: the
 * provider's event, the thank-you page), and ended unpaid at its deadline (expire.ts). The provider's sessions are
 * the port's own operations: one that cannot end them on request is handled too (settle.ts, expire.ts).
 */
export function checkoutService(deps: CheckoutDeps) {
  return {
    expireAbandoned: () => expireAbandoned(deps),
    create: (input: CheckoutInput) => startCheckout(deps, input),
    cancel: (checkoutId: string) => cancelCheckout(deps.db, checkoutId),
    /** The checkout a provider session belongs to (the provider's events name only its session). */
    checkoutForSession: (sessionIdentifier: string) => checkoutIdOfSession(deps.db, sessionIdentifier),
    settleSession: (sessionIdentifier: string, alongside?: Alongside, event?: EventKey) =>
      settleSession(deps, sessionIdentifier, alongside, event),
    /** Several provider events' sessions settled together (settle-batch.ts), each answered once its outcome is known. */
    settleSessions: (asks: SessionSettlement[], answer: SessionAnswer) => settleSessions(deps, asks, answer),
    fulfil: (checkoutId: string) => fulfilCheckout(deps, checkoutId),
    outcome: (checkoutId: string, viewerUserId: string | null = null) =>
      checkoutOutcome(deps, checkoutId, viewerUserId),
  };
}

export type CheckoutService = ReturnType<typeof checkoutService>;
