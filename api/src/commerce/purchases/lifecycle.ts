import type { Knex } from 'knex';
import { recordAudit, SYSTEM_ACTOR, type Actor } from '../../audit/record';
import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import type { Logger } from '../../logger';
import type { NewEmail, Outbox } from '../../mail/outbox';
import { refundEmail } from '../../mail/templates';
import { ledger } from '../../finance/ledger';
import type { MerchantCharge } from '../../payments/models';
import type { PaymentProvider } from '../../payments/provider';
import { NON_GRANTING_STATUSES } from '../../shared/purchase-status';
import { refundReasonLabel, type RefundReason } from '../../shared/refund-reasons';
import { formatMoney } from '../../shared/money';
import { GRANTING_STATUSES, type Purchase, type PurchaseStatus } from '../models';
import { keepOutOfTeam } from '../teams/seats';
import type { BanResult, RefundResult } from '../schemas';
import { cancelOpenTransfers } from '../transfers/transfers';

/**
 * The only edges a purchase's status may move along (docs/domain.md §6.1). Refunded, Banned and Revoked are final, so a
 * late or duplicated provider event can never undo a newer state.
 */
export const PURCHASE_EDGES: Record<PurchaseStatus, readonly PurchaseStatus[]> = {
  Valid: NON_GRANTING_STATUSES,
  Restricted: NON_GRANTING_STATUSES,
  Disputed: [...GRANTING_STATUSES, 'Banned'], // a dispute won gives back the access it had
  Refunded: [],
  Banned: [],
  Revoked: [], // a seat let back in is a new seat
};

const sourcesOf = (to: PurchaseStatus) =>
  (Object.keys(PURCHASE_EDGES) as PurchaseStatus[]).filter((from) => PURCHASE_EDGES[from].includes(to));

/** What refunds, disputes and bans read of a purchase. */
type PurchaseRow = Pick<
  Purchase,
  'id' | 'userId' | 'productId' | 'status' | 'merchantChargeId' | 'bulkCouponId' | 'redeemedBulkCouponId'
>;

/** What a refund reads of the charge it returns money from. */
type ChargeRow = Pick<
  MerchantCharge,
  'id' | 'userId' | 'merchantAccountId' | 'identifier' | 'amount' | 'refundAmount' | 'currency'
>;

interface Deps {
  db: Db;
  logger: Logger;
  outbox: Outbox;
  provider: PaymentProvider;
}

/** The email that tells the buyer about a refund, written once the provider confirmed it. */
export type RefundEmail = (
  trx: Knex.Transaction,
  charge: ChargeRow,
  result: { refundAmount: number; full: boolean },
) => Promise<NewEmail>;

export interface RefundInput {
  /** Cents; the whole remaining amount when left out. */
  amount?: number;
  reasonCode: RefundReason;
  /** The staff's note (required with 'other', which the schema checks). */
  reason?: string;
}

/** A refund's reason in words, for the provider, the purchase's status reason and the audit log. */
export const refundReasonText = (code: RefundReason, note?: string | null) =>
  note ? `${refundReasonLabel(code)}: ${note}` : refundReasonLabel(code);

/** A provider's dispute as its events describe it. */
export interface DisputeFields {
  identifier: string;
  chargeIdentifier: string;
  amount: number;
  reason: string | null;
  /** The provider's deadline for our evidence; null when it gave none (an inquiry, or a closed dispute). */
  evidenceDueBy?: Date | null;
}

/** Refunds, disputes and bans: what ends or restores access after a purchase, from the console or the provider. */
export function purchaseLifecycle({ db, logger, outbox, provider }: Deps) {
  /** Moves a purchase along an allowed edge; false when it is not in a state that may move there. */
  async function move(
    trx: Knex.Transaction,
    purchaseId: string,
    to: PurchaseStatus,
    reason: string | null,
  ): Promise<boolean> {
    const moved = await trx('purchases')
      .where({ id: purchaseId })
      .whereIn('status', sourcesOf(to))
      .update({ status: to, statusReason: reason });
    return moved > 0;
  }

  /** A purchase that no longer grants access takes its open transfer and, for a team, its seats with it. */
  async function endAccess(
    trx: Knex.Transaction,
    purchase: PurchaseRow,
    status: PurchaseStatus,
    reason: string | null,
  ): Promise<void> {
    await cancelOpenTransfers(trx, purchase.id);
    if (purchase.bulkCouponId && status !== 'Disputed')
      await takeSeatsBack(trx, purchase, status, reason ?? `the team purchase was ${status.toLowerCase()}`);
  }

  /**
   * A team purchase that ended takes the seats it bought out of its team (docs/domain.md §7): when no other purchase of
   * the team is live (or disputed) the team closes and every seat ends; otherwise the team shrinks by its seats, and if
   * more people hold seats than remain, the latest to join lose theirs.
   */
  async function takeSeatsBack(
    trx: Knex.Transaction,
    purchase: PurchaseRow,
    status: PurchaseStatus,
    reason: string,
  ): Promise<void> {
    const couponId = purchase.bulkCouponId!;
    const coupon = await trx('coupons').where({ id: couponId }).forUpdate().first('maxUses', 'usedCount');
    // A disputed purchase still holds its seats until the dispute ends, so it keeps the team open too.
    const live = await trx('purchases')
      .where({ bulkCouponId: couponId })
      .whereNot({ id: purchase.id })
      .whereIn('status', [...GRANTING_STATUSES, 'Disputed'])
      .first('id');
    const seats = live
      ? ((await trx('checkouts').where({ purchaseId: purchase.id }).first('quantity'))?.quantity ?? coupon.maxUses)
      : coupon.maxUses;
    const excess = Math.max(0, coupon.usedCount - (coupon.maxUses - seats));
    const members = trx('purchases').where({ redeemedBulkCouponId: couponId }).whereIn('status', sourcesOf(status));
    if (!live) {
      await members.update({ status, statusReason: reason });
      await trx('coupons').where({ id: couponId }).update({ status: 'inactive' });
      return;
    }
    let ended = 0;
    if (excess > 0) {
      const latest = members.clone().orderBy('createdAt', 'desc').limit(excess).select('id');
      ended = await trx('purchases').whereIn('id', latest).update({ status, statusReason: reason });
    }
    await trx('coupons')
      .where({ id: couponId })
      .update({
        usedCount: coupon.usedCount - ended,
        maxUses: Math.max(coupon.maxUses - seats, coupon.usedCount - ended),
      });
  }

  async function lockedPurchase(trx: Knex.Transaction, purchaseId: string): Promise<PurchaseRow> {
    const purchase = (await trx('purchases').where({ id: purchaseId }).forUpdate().first()) as PurchaseRow | undefined;
    if (!purchase) throw new AppError('not-found', 'No such purchase.');
    return purchase;
  }

  /** The purchases paid by a provider charge (a team's seats hang off the buyer's purchase). */
  async function purchasesOfCharge(trx: Knex.Transaction, chargeId: string): Promise<PurchaseRow[]> {
    return trx('purchases').where({ merchantChargeId: chargeId }).orderBy('createdAt');
  }

  /**
   * Locks a charge's purchases, then the charge: the order every writer of both uses (transfers, refunds), so
   * two of them never wait on each other.
   */
  async function lockCharge(trx: Knex.Transaction, chargeId: string): Promise<ChargeRow> {
    await trx('purchases').where({ merchantChargeId: chargeId }).orderBy('id').forUpdate().select('id');
    return (await trx('merchantCharges').where({ id: chargeId }).forUpdate().first()) as ChargeRow;
  }

  async function chargeByIdentifier(
    trx: Knex.Transaction,
    accountId: string,
    identifier: string,
  ): Promise<ChargeRow | undefined> {
    const found = await trx('merchantCharges').where({ merchantAccountId: accountId, identifier }).first('id');
    return found && lockCharge(trx, found.id);
  }

  /** The charge a dispute event names, locked; one we do not know is logged and the event ignored. */
  async function disputedCharge(
    trx: Knex.Transaction,
    accountId: string,
    chargeIdentifier: string,
  ): Promise<ChargeRow | undefined> {
    const charge = await chargeByIdentifier(trx, accountId, chargeIdentifier);
    if (!charge) logger.warn({ chargeIdentifier }, 'dispute for a charge we do not know; ignored');
    return charge;
  }

  /** Our record of a provider's dispute, as its events describe it. */
  const disputeRecord = (accountId: string, chargeId: string, dispute: DisputeFields) => ({
    merchantAccountId: accountId,
    identifier: dispute.identifier,
    merchantChargeId: chargeId,
    amount: dispute.amount,
    reason: dispute.reason,
    evidenceDueBy: dispute.evidenceDueBy ?? null,
  });

  /** Records a refund's total as the provider reports it: it only grows, and a full one ends access. */
  async function applyRefundTotal(
    trx: Knex.Transaction,
    charge: ChargeRow,
    refunded: number,
    reason: string,
    actor: Actor,
    requestId: string | null,
    reasonCode: RefundReason | null = null,
  ) {
    const total = Math.min(charge.amount, Math.max(charge.refundAmount, refunded));
    if (total !== charge.refundAmount) {
      await trx('merchantCharges').where({ id: charge.id }).update({ refundAmount: total });
      await ledger.recordAdjustment(trx, charge.id, -(total - charge.refundAmount), 'refund', `refunded-to-${total}`);
    }
    const full = total >= charge.amount;
    for (const purchase of await purchasesOfCharge(trx, charge.id)) {
      const moved = full && (await move(trx, purchase.id, 'Refunded', reason));
      if (moved) await endAccess(trx, purchase, 'Refunded', null);
      if (total !== charge.refundAmount || moved) {
        await recordAudit(trx, {
          actor,
          action: full ? 'purchase.refunded' : 'purchase.partially-refunded',
          resource: 'purchases',
          recordId: purchase.id,
          before: { status: purchase.status, refundAmount: charge.refundAmount },
          after: { status: moved ? 'Refunded' : purchase.status, refundAmount: total, reason, reasonCode },
          requestId,
        });
      }
    }
    return { refundAmount: total, full };
  }

  /**
   * Asks the provider for a refund reserved as a pending `merchantRefunds` row (its key makes a repeat replay, not
   * refund twice), outside any transaction, then records the charge's refunded total as the provider reports it and
   * emails the buyer, once: only the call that moves the row to succeeded sends. Retrying a pending or failed row is
   * safe for the same reason.
   */
  async function completeRefund(
    reserved: { id: string; chargeId: string; reason: string },
    emailOf: RefundEmail,
    actor: Actor = SYSTEM_ACTOR,
    requestId: string | null = null,
  ): Promise<{ refundAmount: number; full: boolean }> {
    const row = await db('merchantRefunds as r')
      .join('merchantCharges as c', 'c.id', 'r.merchantChargeId')
      .where('r.id', reserved.id)
      .first('r.amount', 'r.idempotencyKey', 'r.status', 'r.reasonCode', 'c.identifier as chargeIdentifier');
    let refund: Awaited<ReturnType<PaymentProvider['refund']>>;
    try {
      refund = await provider.refund({
        chargeIdentifier: row.chargeIdentifier,
        amount: row.amount,
        idempotencyKey: row.idempotencyKey,
        reason: reserved.reason,
        reasonCode: row.reasonCode,
      });
    } catch (error) {
      await db('merchantRefunds').where({ id: reserved.id, status: 'pending' }).update({ status: 'failed' });
      throw error;
    }
    const outcome = await db.transaction(async (trx) => {
      const charge = await lockCharge(trx, reserved.chargeId);
      const moved = await trx('merchantRefunds')
        .where({ id: reserved.id })
        .whereNot({ status: 'succeeded' })
        .update({ status: 'succeeded', identifier: refund.identifier });
      const result = await applyRefundTotal(
        trx,
        charge,
        refund.refundedTotal,
        reserved.reason,
        actor,
        requestId,
        row.reasonCode,
      );
      if (moved) await outbox.enqueue(trx, await emailOf(trx, charge, result));
      return result;
    });
    outbox.flushInBackground();
    return outcome;
  }

  return {
    /**
     * Refunds part or all of what is left of a purchase's charge through its provider, in three steps so that no
     * row lock is held while the provider is called: reserve the amount (a pending refund, counted as taken),
     * ask the provider, then record the charge's refunded total as the provider reports it (it only grows, so a
     * webhook arriving in between changes nothing). The idempotency key is derived from the charge, what was
     * refunded or reserved before and the amount, so a retried request refunds once.
     */
    async refund(
      purchaseId: string,
      input: RefundInput,
      actor: Actor,
      requestId: string | null = null,
    ): Promise<RefundResult> {
      const reserved = await db.transaction(async (trx) => {
        const purchase = await lockedPurchase(trx, purchaseId);
        if (!purchase.merchantChargeId) {
          throw new AppError(
            'refund-not-possible',
            'Nothing was paid for this purchase (a free redemption or a team seat), so there is nothing to refund.',
          );
        }
        // A spent upgrade credit (docs/domain.md §5.3): the upgrade bought with it is refunded first, or the credit
        // would be paid back twice.
        const upgrade = await trx('purchases')
          .where({ upgradedFromId: purchase.id })
          .whereNot({ status: 'Refunded' })
          .first('id');
        if (upgrade) {
          throw new AppError(
            'purchase-upgraded',
            'This purchase was used as credit for an upgrade; refund the upgrade first.',
          );
        }
        const charge = await lockCharge(trx, purchase.merchantChargeId);
        const [sum] = await trx('merchantRefunds')
          .where({ merchantChargeId: charge.id, status: 'pending' })
          .sum({ pending: 'amount' });
        const taken = charge.refundAmount + Number(sum?.pending ?? 0);
        const left = charge.amount - taken;
        if (left <= 0) {
          throw new AppError(
            'refund-not-possible',
            taken > charge.refundAmount
              ? 'A refund of this purchase is under way.'
              : 'This purchase has already been refunded in full.',
          );
        }
        const amount = input.amount ?? left;
        if (amount > left) {
          const message = `is more than the ${formatMoney(left, charge.currency)} left to refund`;
          throw new AppError('refund-too-large', `The refund ${message}.`, { amount: message });
        }
        const account = await trx('merchantAccounts').where({ id: charge.merchantAccountId }).first('label');
        if (account.label !== provider.label) {
          throw new AppError(
            'refund-not-possible',
            `This purchase was paid through ${account.label}, which is not the payment provider configured now.`,
          );
        }
        const idempotencyKey = `refund-${charge.id}-${taken}-${amount}`;
        const why = { reasonCode: input.reasonCode, reason: input.reason ?? null };
        // A try that failed (the provider unreachable, or its answer lost after it acted) has the same key: it is
        // tried again under it, and the provider replays what it did rather than refunding twice.
        const [row] = await trx('merchantRefunds')
          .insert({
            merchantAccountId: charge.merchantAccountId,
            merchantChargeId: charge.id,
            amount,
            ...why,
            idempotencyKey,
            requestedById: actor.id,
          })
          .onConflict('idempotencyKey')
          .merge({ status: 'pending', ...why, requestedById: actor.id })
          .where('merchantRefunds.status', 'failed')
          .returning('id');
        if (!row) throw new AppError('refund-not-possible', 'A refund of this purchase is under way.');
        return { id: row.id as string, charge, amount, idempotencyKey, purchase };
      });

      const refundEmailOf: RefundEmail = async (trx, charge, result) => {
        const buyer = await trx('users').where({ id: charge.userId }).first('email');
        const product = await trx('products').where({ id: reserved.purchase.productId }).first('name');
        return refundEmail(buyer.email, product.name, formatMoney(reserved.amount, charge.currency), result.full);
      };
      const result = await completeRefund(
        { id: reserved.id, chargeId: reserved.charge.id, reason: refundReasonText(input.reasonCode, input.reason) },
        refundEmailOf,
        actor,
        requestId,
      );
      return { ...result, amount: reserved.amount };
    },

    completeRefund,

    /** Ends a purchase's access for good; only an admin may (the route says so), always with a reason. */
    async ban(purchaseId: string, reason: string, actor: Actor, requestId: string | null = null): Promise<BanResult> {
      return db.transaction(async (trx) => {
        // A member's seat: the team's coupon is locked first, the order team changes take (coupon, then seats).
        const seat = await trx('purchases').where({ id: purchaseId }).first('redeemedBulkCouponId');
        if (seat?.redeemedBulkCouponId)
          await trx('coupons').where({ id: seat.redeemedBulkCouponId }).forUpdate().first('id');
        const purchase = await lockedPurchase(trx, purchaseId);
        if (!(await move(trx, purchase.id, 'Banned', reason))) {
          throw new AppError(
            'status-change-not-allowed',
            `A ${purchase.status.toLowerCase()} purchase cannot be banned.`,
          );
        }
        await endAccess(trx, purchase, 'Banned', reason);
        if (purchase.redeemedBulkCouponId) {
          // A banned member's seat goes back to the team, and the invite link refuses them as a revoked member.
          await trx('coupons')
            .where({ id: purchase.redeemedBulkCouponId })
            .where('usedCount', '>', 0)
            .decrement('usedCount', 1);
          await keepOutOfTeam(trx, purchase.redeemedBulkCouponId, purchase.userId, actor.id);
        }
        await recordAudit(trx, {
          actor,
          action: 'purchase.banned',
          resource: 'purchases',
          recordId: purchase.id,
          before: { status: purchase.status },
          after: { status: 'Banned', reason },
          requestId,
        });
        return { status: 'Banned' as const };
      });
    },

    /**
     * `charge.refunded`: the provider's total refunded, whoever started the refund. Money that went back without a
     * refund of ours (one made in the provider's dashboard) is recorded as a refund of its own, reason 'provider',
     * under the event's id (the event names the charge, not the refund), so that reports count it.
     */
    async chargeRefunded(accountId: string, chargeIdentifier: string, amountRefunded: number, eventId: string) {
      const emailed = await db.transaction(async (trx) => {
        const charge = await chargeByIdentifier(trx, accountId, chargeIdentifier);
        if (!charge) return logger.warn({ chargeIdentifier }, 'refund event for a charge we do not know; ignored');
        const result = await applyRefundTotal(
          trx,
          charge,
          amountRefunded,
          'Refunded at the payment provider',
          SYSTEM_ACTOR,
          null,
        );
        const grown = result.refundAmount - charge.refundAmount;
        // A refund started at the provider's dashboard is told to the buyer as one from the console is; one of ours
        // under way (or failed, to be tried again) emails when it completes (under the charge's lock, so exactly one
        // of the two sends).
        const ours = await trx('merchantRefunds')
          .where({ merchantChargeId: charge.id })
          .whereIn('status', ['pending', 'failed'])
          .first('id');
        if (grown <= 0 || ours) return false;
        await trx('merchantRefunds')
          .insert({
            merchantAccountId: accountId,
            merchantChargeId: charge.id,
            identifier: eventId,
            status: 'succeeded',
            amount: grown,
            reasonCode: 'provider',
            idempotencyKey: `provider-${charge.id}-to-${result.refundAmount}`,
          })
          .onConflict()
          .ignore();
        const buyer = await trx('users').where({ id: charge.userId }).first('email');
        const product = await trx('purchases as p')
          .join('products as pr', 'pr.id', 'p.productId')
          .where('p.merchantChargeId', charge.id)
          .first('pr.name');
        await outbox.enqueue(
          trx,
          refundEmail(buyer.email, product.name, formatMoney(grown, charge.currency), result.full),
        );
        return true;
      });
      if (emailed) outbox.flushInBackground();
    },

    /** `charge.dispute.created`: access ends while the dispute is open, unless it was already closed. */
    async disputeOpened(accountId: string, dispute: DisputeFields) {
      await db.transaction(async (trx) => {
        const charge = await disputedCharge(trx, accountId, dispute.chargeIdentifier);
        if (!charge) return;
        const [fresh] = await trx('merchantDisputes')
          .insert(disputeRecord(accountId, charge.id, dispute))
          .onConflict(['merchantAccountId', 'identifier'])
          .ignore()
          .returning('id');
        const row = await trx('merchantDisputes')
          .where({ merchantAccountId: accountId, identifier: dispute.identifier })
          .first('status');
        if (row.status !== 'open') return; // closed before this event arrived
        // The disputed amount is withdrawn while the dispute is open.
        if (fresh) await ledger.recordAdjustment(trx, charge.id, -dispute.amount, 'dispute', dispute.identifier);
        for (const purchase of await purchasesOfCharge(trx, charge.id)) {
          if (!(await move(trx, purchase.id, 'Disputed', dispute.reason ?? 'disputed with the card issuer'))) continue;
          await endAccess(trx, purchase, 'Disputed', null);
          await recordAudit(trx, {
            actor: SYSTEM_ACTOR,
            action: 'purchase.disputed',
            resource: 'purchases',
            recordId: purchase.id,
            before: { status: purchase.status },
            after: { status: 'Disputed', dispute: dispute.identifier },
          });
        }
      });
    },

    /** `charge.dispute.closed`: won gives access back; lost keeps it ended. A closed dispute never reopens. */
    async disputeClosed(accountId: string, dispute: DisputeFields & { won: boolean }) {
      await db.transaction(async (trx) => {
        const charge = await disputedCharge(trx, accountId, dispute.chargeIdentifier);
        if (!charge) return;
        const status = dispute.won ? 'won' : 'lost';
        const before = await trx('merchantDisputes')
          .where({ merchantAccountId: accountId, identifier: dispute.identifier })
          .first('status');
        // The ledger follows the money: a won dispute returns what its opening withdrew; a lost one whose opening
        // we never saw withdraws it now. Repeated close events change nothing.
        if (before?.status === 'open' && dispute.won)
          await ledger.recordAdjustment(trx, charge.id, dispute.amount, 'dispute-won', dispute.identifier);
        if (!before && !dispute.won)
          await ledger.recordAdjustment(trx, charge.id, -dispute.amount, 'dispute', dispute.identifier);
        if (before && before.status !== 'open') return;
        await trx('merchantDisputes')
          .insert({ ...disputeRecord(accountId, charge.id, dispute), status, closedAt: trx.fn.now() })
          .onConflict(['merchantAccountId', 'identifier'])
          .merge({ status, closedAt: trx.fn.now() });
        if (!dispute.won) return;
        const stillOpen = await trx('merchantDisputes')
          .where({ merchantChargeId: charge.id, status: 'open' })
          .first('id');
        if (stillOpen) return;
        for (const purchase of await purchasesOfCharge(trx, charge.id)) {
          if (purchase.status !== 'Disputed') continue;
          const checkout = await trx('checkouts').where({ purchaseId: purchase.id }).first('restricted');
          const restored: PurchaseStatus = checkout?.restricted ? 'Restricted' : 'Valid';
          await move(trx, purchase.id, restored, null);
          await recordAudit(trx, {
            actor: SYSTEM_ACTOR,
            action: 'purchase.dispute-won',
            resource: 'purchases',
            recordId: purchase.id,
            before: { status: 'Disputed' },
            after: { status: restored, dispute: dispute.identifier },
          });
        }
      });
    },
  };
}

export type PurchaseLifecycle = ReturnType<typeof purchaseLifecycle>;
