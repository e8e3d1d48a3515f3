import type { Actor } from '../../audit/record';
import type { RefundSettlement } from '../../payments/provider';
import { banPurchase } from './bans';
import { disputeClosed, disputeOpened, type DisputeFields } from './disputes';
import type { LifecycleDeps } from './lifecycle-deps';
import { chargeRefunded, refundedAtProvider } from './provider-refunds';
import { completeRefund, type RefundEmail, type ReservedRefund } from './refund-completion';
import { refundSettled } from './refund-settlement';
import { refundPurchase, type RefundInput } from './refunds';

/**
 * Refunds, disputes and bans: what ends or restores access after a purchase, from the console or the provider. Each
 * is a module of its own; this binds them to their dependencies for the routes, checkout and provider events.
 */
export function purchaseLifecycle(deps: LifecycleDeps) {
  return {
    refund: (purchaseId: string, input: RefundInput, actor: Actor, requestId: string | null = null) =>
      refundPurchase(deps, purchaseId, input, actor, requestId),
    completeRefund: (reserved: ReservedRefund, emailOf: RefundEmail, actor?: Actor, requestId?: string | null) =>
      completeRefund(deps, reserved, emailOf, actor, requestId),
    ban: (purchaseId: string, reason: string, actor: Actor, requestId: string | null = null) =>
      banPurchase(deps.db, purchaseId, reason, actor, requestId),
    chargeRefunded: (accountId: string, chargeIdentifier: string, amountRefunded: number, eventId: string) =>
      chargeRefunded(deps, accountId, chargeIdentifier, amountRefunded, eventId),
    refundedAtProvider: (accountId: string, chargeIdentifier: string, amount: number, refundIdentifier: string) =>
      refundedAtProvider(deps, accountId, chargeIdentifier, amount, refundIdentifier),
    refundSettled: (accountId: string, settlement: RefundSettlement) => refundSettled(deps, accountId, settlement),
    disputeOpened: (accountId: string, dispute: DisputeFields) => disputeOpened(deps, accountId, dispute),
    disputeClosed: (accountId: string, dispute: DisputeFields & { won: boolean }) =>
      disputeClosed(deps, accountId, dispute),
  };
}

export type PurchaseLifecycle = ReturnType<typeof purchaseLifecycle>;
