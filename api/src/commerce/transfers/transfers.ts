import type { Knex } from 'knex';
import type { ModelObject } from 'objection';
import { recordAudit, type Actor } from '../../audit/record';
import { AppError } from '../../shared/errors';
import { timeZoneOf } from '../../identity/profile/prefs';
import { findOrCreateUserByEmail } from '../../identity/profile/users';
import { purchaseReceivedEmail, transferCompletedEmail, transferOfferEmail } from '../../mail/templates';
import { GRANTING_STATUSES, type Purchase, type PurchaseUserTransfer } from '../models';
import { CANCELABLE_TRANSFER_STATES, OPEN_TRANSFER_STATES, type TransferState } from '../../shared/transfer-states';
import type { CommerceDeps } from '../deps';
import type { CommerceLimits } from '../checkout/limits';
import { holdingOf } from '../purchases/ownership';
import type { TransferPreview, TransferView } from '../schemas';

/** Cancels a purchase's transfer under way: the purchase ended, or its credit paid for an upgrade. */
export const cancelOpenTransfers = (trx: Knex.Transaction, purchaseId: string) =>
  trx('purchaseUserTransfers')
    .where({ purchaseId })
    .whereIn('transferState', OPEN_TRANSFER_STATES)
    .update({ transferState: 'CANCELED', canceledAt: trx.fn.now() });
/** States that expire when the window passes; a confirmed transfer completes in the same transaction. */
const EXPIRING_STATES: readonly TransferState[] = ['AVAILABLE', 'INITIATED', 'VERIFIED'];

export type TransferRow = ModelObject<PurchaseUserTransfer>;

/**
 * The purchase a transfer moves, with `upgraded` computed by the query (no column holds it): its credit paid for an
 * upgrade (docs/domain.md §5.3), so it keeps its content but is no longer anyone else's to take.
 */
type PurchaseRow = Pick<
  Purchase,
  | 'id'
  | 'userId'
  | 'productId'
  | 'status'
  | 'createdAt'
  | 'bulkCouponId'
  | 'redeemedBulkCouponId'
  | 'merchantChargeId'
  | 'kind'
> & { upgraded: boolean };

interface Deps extends CommerceDeps {
  limits: Pick<CommerceLimits, 'transferOfferBy' | 'transferOfferTo'>;
}

const DAY_MS = 86_400_000;

/**
 * Individual, paid-or-redeemed purchases that still grant access may be given away; team seats and teams may not,
 * nor a purchase whose credit paid for an upgrade.
 */
/** A comp was given to this person for a reason of theirs: it is not theirs to pass on (support can still move it). */
function transferable(purchase: PurchaseRow): boolean {
  return (
    purchase.status === 'Valid' &&
    purchase.kind !== 'comp' &&
    !purchase.bulkCouponId &&
    !purchase.redeemedBulkCouponId &&
    !purchase.upgraded
  );
}

/**
 * Purchase transfers (docs/domain.md §8). Every move locks the purchase row first, as refunds, disputes and bans do, so
 * a transfer racing any of them ends in one consistent state. Expiry is applied before every read and by a sweep.
 */
export function transferService({ db, clock, config, logger, outbox, provider, limits }: Deps) {
  const windowEnd = (purchase: PurchaseRow) =>
    new Date(new Date(purchase.createdAt).getTime() + config.TRANSFER_WINDOW_DAYS * DAY_MS);
  const transferUrl = (id: string) => new URL(`/transfers/${id}`, config.publicUrl).toString();

  async function lockPurchase(trx: Knex.Transaction, purchaseId: string): Promise<PurchaseRow> {
    // An upgrade's fulfilment locks its source row too, so `upgraded` cannot change while this lock is held.
    const purchase = (await trx('purchases')
      .where({ id: purchaseId })
      .forUpdate()
      .first(
        'purchases.*',
        trx.raw('exists (select 1 from purchases as u where u.upgraded_from_id = purchases.id) as upgraded'),
      )) as PurchaseRow | undefined;
    if (!purchase) throw new AppError('transfer-not-found', 'No such purchase.');
    return purchase;
  }

  /** Moves open transfers whose window passed to EXPIRED (for one purchase, or all). */
  async function expire(trx: Knex | Knex.Transaction, purchaseId?: string): Promise<number> {
    const query = trx('purchaseUserTransfers')
      .whereIn('transferState', EXPIRING_STATES)
      .where('expiresAt', '<=', clock.now());
    if (purchaseId) query.where({ purchaseId });
    return query.update({ transferState: 'EXPIRED' });
  }

  /** The purchase's transfer under way, opening the AVAILABLE one when the purchase may still be given away. */
  async function currentTransfer(trx: Knex.Transaction, purchase: PurchaseRow): Promise<TransferRow | null> {
    await expire(trx, purchase.id);
    const open = (await trx('purchaseUserTransfers')
      .where({ purchaseId: purchase.id })
      .whereIn('transferState', OPEN_TRANSFER_STATES)
      .first()) as TransferRow | undefined;
    if (open) return open;
    if (!transferable(purchase) || windowEnd(purchase) <= clock.now()) return null;
    // Given away once: a completed transfer, or a window that expired, closes the purchase for good.
    const ended = await trx('purchaseUserTransfers')
      .where({ purchaseId: purchase.id })
      .whereIn('transferState', ['COMPLETED', 'EXPIRED'])
      .first('id');
    if (ended) return null;
    const [row] = await trx('purchaseUserTransfers')
      .insert({
        purchaseId: purchase.id,
        sourceUserId: purchase.userId,
        transferState: 'AVAILABLE',
        expiresAt: windowEnd(purchase),
      })
      .returning('*');
    return row as TransferRow;
  }

  /** Locks the transfer's purchase and then the transfer, after applying expiry. */
  async function lockTransfer(
    trx: Knex.Transaction,
    transferId: string,
  ): Promise<{ transfer: TransferRow; purchase: PurchaseRow }> {
    const found = (await trx('purchaseUserTransfers').where({ id: transferId }).first('purchaseId')) as
      { purchaseId: string } | undefined;
    if (!found) throw new AppError('transfer-not-found', 'No such transfer.');
    const purchase = await lockPurchase(trx, found.purchaseId);
    await expire(trx, purchase.id);
    const transfer = (await trx('purchaseUserTransfers').where({ id: transferId }).forUpdate().first()) as TransferRow;
    return { transfer, purchase };
  }

  function refuseUnless(transfer: TransferRow, states: readonly TransferState[], action: string): void {
    if (states.includes(transfer.transferState)) return;
    if (transfer.transferState === 'EXPIRED')
      throw new AppError('transfer-expired', 'The time to transfer this purchase has passed.');
    throw new AppError(
      'transfer-not-available',
      `This transfer is ${transfer.transferState.toLowerCase()}; it cannot be ${action}.`,
    );
  }

  /** A recipient who has the course already (bought, or a team seat) is not given a second copy. */
  async function refuseIfHolding(
    trx: Knex.Transaction,
    recipient: { id: string; email: string },
    productId: string,
  ): Promise<void> {
    if (await holdingOf(trx, recipient.id, productId)) {
      throw new AppError('already-purchased', `${recipient.email} already owns this course.`, {
        email: 'already owns this course',
      });
    }
  }

  function mustBeRecipient(transfer: TransferRow, userId: string): void {
    if (transfer.targetUserId !== userId) {
      throw new AppError(
        'not-transfer-recipient',
        'This transfer was offered to another email address. Sign in with that address to accept it.',
      );
    }
  }

  async function move(
    trx: Knex.Transaction,
    transfer: TransferRow,
    to: TransferState,
    fields: Partial<TransferRow> = {},
  ): Promise<void> {
    await trx('purchaseUserTransfers')
      .where({ id: transfer.id })
      .update({ transferState: to, ...fields });
  }

  /** Purchase, charge and (when it pays for nothing else of theirs) the provider customer change hands. */
  async function moveOwnership(
    trx: Knex.Transaction,
    purchase: PurchaseRow,
    targetUserId: string,
  ): Promise<{ customerIdentifier: string | null }> {
    await trx('purchases').where({ id: purchase.id }).update({ userId: targetUserId });
    if (!purchase.merchantChargeId) return { customerIdentifier: null };
    const [charge] = await trx('merchantCharges')
      .where({ id: purchase.merchantChargeId })
      .update({ userId: targetUserId })
      .returning('merchantCustomerId');
    if (!charge?.merchantCustomerId) return { customerIdentifier: null };
    const shared = await trx('merchantCharges')
      .where({ merchantCustomerId: charge.merchantCustomerId })
      .whereNot({ userId: targetUserId })
      .first('id');
    if (shared) return { customerIdentifier: null };
    const [customer] = await trx('merchantCustomers')
      .where({ id: charge.merchantCustomerId })
      .update({ userId: targetUserId })
      .returning('identifier');
    return { customerIdentifier: customer?.identifier ?? null };
  }

  const view = async (trx: Knex | Knex.Transaction, transfer: TransferRow): Promise<TransferView> => {
    // One statement at a time: `trx` may be a transaction, whose one connection runs one at a time.
    const purchase = await trx('purchases as p')
      .join('products as pr', 'pr.id', 'p.productId')
      .where('p.id', transfer.purchaseId)
      .first('pr.name as productName', 'pr.id as productId', 'pr.slug as productSlug');
    const source = await trx('users').where({ id: transfer.sourceUserId }).first('email');
    const target = transfer.targetUserId
      ? await trx('users').where({ id: transfer.targetUserId }).first('email')
      : null;
    return {
      id: transfer.id,
      state: transfer.transferState,
      purchaseId: transfer.purchaseId,
      product: { id: purchase.productId, name: purchase.productName, slug: purchase.productSlug as string | null },
      ownerEmail: source.email as string,
      recipientEmail: target?.email ?? null,
      expiresAt: transfer.expiresAt,
      createdAt: transfer.createdAt,
      confirmedAt: transfer.confirmedAt,
      completedAt: transfer.completedAt,
    };
  };

  return {
    expire: () => expire(db),

    /** The owner's view of a purchase's transfer: the one under way, or null when it cannot be given away. */
    async forPurchase(ownerId: string, purchaseId: string): Promise<TransferView | null> {
      return db.transaction(async (trx) => {
        const purchase = await lockPurchase(trx, purchaseId);
        if (purchase.userId !== ownerId)
          throw new AppError('not-purchase-owner', 'Only the owner of this purchase can transfer it.');
        const transfer = await currentTransfer(trx, purchase);
        return transfer && view(trx, transfer);
      });
    },

    /**
     * AVAILABLE → INITIATED: the owner names the recipient, who is emailed a link to the accept page. Offers are
     * counted per owner first and per recipient address once the purchase is known to be theirs: cancel and offer
     * again cannot mail anyone at will, and nobody can use up an address's offers with purchases not theirs.
     */
    async initiate(
      ownerId: string,
      purchaseId: string,
      recipientEmail: string,
      requestId: string | null = null,
    ): Promise<TransferView> {
      await limits.transferOfferBy(ownerId);
      const result = await db.transaction(async (trx) => {
        const purchase = await lockPurchase(trx, purchaseId);
        if (purchase.userId !== ownerId)
          throw new AppError('not-purchase-owner', 'Only the owner of this purchase can transfer it.');
        await limits.transferOfferTo(recipientEmail, trx);
        const transfer = await currentTransfer(trx, purchase);
        if (!transfer) {
          const expired = await trx('purchaseUserTransfers')
            .where({ purchaseId, transferState: 'EXPIRED' })
            .first('id');
          if (expired || (transferable(purchase) && windowEnd(purchase) <= clock.now()))
            throw new AppError('transfer-expired', 'The time to transfer this purchase has passed.');
          throw new AppError(
            'transfer-not-available',
            'This purchase cannot be transferred (only a valid individual purchase can, once).',
          );
        }
        refuseUnless(transfer, ['AVAILABLE'], 'offered to someone');
        const owner = await trx('users').where({ id: ownerId }).first('email');
        if (owner.email.toLowerCase() === recipientEmail.toLowerCase()) {
          throw new AppError('validation-failed', 'Name someone else: this purchase is already yours.', {
            email: 'is your own address',
          });
        }
        const recipient = await findOrCreateUserByEmail(trx, recipientEmail, { verified: false });
        await refuseIfHolding(trx, recipient, purchase.productId);
        await move(trx, transfer, 'INITIATED', { targetUserId: recipient.id });
        const product = await trx('products').where({ id: purchase.productId }).first('name');
        // The offer's end in the recipient's own time zone when their settings name one (else UTC, said so).
        const zone = await timeZoneOf(trx, recipient.id);
        const offer = transferOfferEmail(
          recipient.email,
          owner.email,
          product.name,
          transferUrl(transfer.id),
          transfer.expiresAt,
          zone,
        );
        await outbox.enqueue(trx, offer);
        await recordAudit(trx, {
          actor: { id: ownerId, email: owner.email },
          action: 'transfer.initiated',
          resource: 'purchase-user-transfers',
          recordId: transfer.id,
          after: { recipient: recipient.email },
          requestId,
        });
        return view(trx, { ...transfer, transferState: 'INITIATED', targetUserId: recipient.id });
      });
      outbox.flushInBackground();
      return result;
    },

    /** INITIATED | VERIFIED → CANCELED by the owner; a fresh AVAILABLE row keeps the same window. */
    async cancel(
      actor: Actor & { staff?: boolean },
      transferId: string,
      requestId: string | null = null,
    ): Promise<TransferView> {
      return db.transaction(async (trx) => {
        const { transfer, purchase } = await lockTransfer(trx, transferId);
        if (!actor.staff && purchase.userId !== actor.id)
          throw new AppError('not-purchase-owner', 'Only the owner of this purchase can cancel its transfer.');
        refuseUnless(transfer, CANCELABLE_TRANSFER_STATES, 'canceled');
        await move(trx, transfer, 'CANCELED', { canceledAt: clock.now() });
        const [fresh] = await trx('purchaseUserTransfers')
          .insert({
            purchaseId: purchase.id,
            sourceUserId: purchase.userId,
            transferState: 'AVAILABLE',
            expiresAt: transfer.expiresAt,
          })
          .returning('*');
        await recordAudit(trx, {
          actor,
          action: 'transfer.canceled',
          resource: 'purchase-user-transfers',
          recordId: transfer.id,
          before: { state: transfer.transferState },
          after: { state: 'CANCELED' },
          requestId,
        });
        return view(trx, fresh as TransferRow);
      });
    },

    /**
     * What the sign-in page says to a signed-out visitor who followed an offer's link: the course, from whom, and the
     * address to sign in with. Only an offer still open to accept answers; any other is `transfer-not-found`, so an
     * old link tells nothing. The link itself was emailed to that address.
     */
    async preview(transferId: string): Promise<TransferPreview> {
      const row = await db('purchaseUserTransfers as t')
        .join('purchases as p', 'p.id', 't.purchaseId')
        .join('products as pr', 'pr.id', 'p.productId')
        .join('users as s', 's.id', 't.sourceUserId')
        .join('users as r', 'r.id', 't.targetUserId')
        .where('t.id', transferId)
        .whereIn('t.transferState', ['INITIATED', 'VERIFIED'])
        .where('t.expiresAt', '>', clock.now())
        .first('pr.name as productName', 's.name as ownerName', 's.email as ownerEmail', 'r.email as recipientEmail');
      if (!row) throw new AppError('transfer-not-found', 'No such offer, or it can no longer be accepted.');
      return {
        product: { name: row.productName },
        from: row.ownerName || row.ownerEmail,
        recipientEmail: row.recipientEmail,
      };
    },

    /** What the recipient sees on the accept page (signing in there as the recipient verifies them). */
    async forRecipient(userId: string, transferId: string): Promise<TransferView> {
      return db.transaction(async (trx) => {
        const { transfer } = await lockTransfer(trx, transferId);
        mustBeRecipient(transfer, userId);
        return view(trx, transfer);
      });
    },

    /** INITIATED → VERIFIED: the recipient is signed in as the email the owner named. */
    async verify(userId: string, transferId: string): Promise<TransferView> {
      return db.transaction(async (trx) => {
        const { transfer } = await lockTransfer(trx, transferId);
        mustBeRecipient(transfer, userId);
        if (transfer.transferState === 'VERIFIED') return view(trx, transfer);
        refuseUnless(transfer, ['INITIATED'], 'verified');
        await move(trx, transfer, 'VERIFIED');
        return view(trx, { ...transfer, transferState: 'VERIFIED' });
      });
    },

    /**
     * VERIFIED → CONFIRMED → COMPLETED in one transaction under the purchase lock: the recipient accepts and the
     * purchase, its charge and customer become theirs. The provider's customer email follows after commit.
     */
    async accept(userId: string, transferId: string, requestId: string | null = null): Promise<TransferView> {
      const outcome = await db.transaction(async (trx) => {
        const { transfer, purchase } = await lockTransfer(trx, transferId);
        mustBeRecipient(transfer, userId);
        refuseUnless(transfer, ['VERIFIED'], 'accepted');
        if (!transferable(purchase))
          throw new AppError('transfer-not-available', 'This purchase can no longer be transferred.');
        // The recipient may have bought the course since the offer: one person never holds two copies. Fulfilment
        // locks the product, so a purchase of theirs being written now is waited for.
        await trx('products').where({ id: purchase.productId }).forUpdate().first('id');
        const owner = await trx('users').where({ id: purchase.userId }).first('id', 'email');
        const recipient = await trx('users').where({ id: userId }).first('id', 'email');
        await refuseIfHolding(trx, recipient, purchase.productId);
        const now = clock.now();
        await move(trx, transfer, 'CONFIRMED', { confirmedAt: now });
        await recordAudit(trx, {
          actor: recipient,
          action: 'transfer.confirmed',
          resource: 'purchase-user-transfers',
          recordId: transfer.id,
          requestId,
        });
        const { customerIdentifier } = await moveOwnership(trx, purchase, userId);
        await move(trx, transfer, 'COMPLETED', { completedAt: now });
        await recordAudit(trx, {
          actor: recipient,
          action: 'transfer.completed',
          resource: 'purchases',
          recordId: purchase.id,
          before: { userId: owner.id, email: owner.email },
          after: { userId, email: recipient.email },
          requestId,
        });
        const product = await trx('products').where({ id: purchase.productId }).first('name');
        await outbox.enqueue(trx, transferCompletedEmail(owner.email, recipient.email, product.name));
        return {
          view: await view(trx, { ...transfer, transferState: 'COMPLETED', confirmedAt: now, completedAt: now }),
          customerIdentifier,
          email: recipient.email,
        };
      });
      outbox.flushInBackground();
      if (outcome.customerIdentifier) await updateProviderCustomer(outcome.customerIdentifier, outcome.email);
      return outcome.view;
    },

    /**
     * Support moves a purchase to another email directly (a buyer who typed the wrong address): recorded as a
     * COMPLETED transfer, whatever the window, and in the audit log.
     */
    async moveDirectly(
      actor: Actor,
      purchaseId: string,
      recipientEmail: string,
      requestId: string | null = null,
    ): Promise<TransferView> {
      const outcome = await db.transaction(async (trx) => {
        const purchase = await lockPurchase(trx, purchaseId);
        if (purchase.bulkCouponId || purchase.redeemedBulkCouponId) {
          throw new AppError(
            'transfer-not-available',
            'Team purchases and team seats are not moved this way; manage the team instead.',
          );
        }
        if (!(GRANTING_STATUSES as readonly string[]).includes(purchase.status))
          throw new AppError('transfer-not-available', `A ${purchase.status.toLowerCase()} purchase cannot be moved.`);
        if (purchase.upgraded)
          throw new AppError(
            'purchase-upgraded',
            'This purchase paid for an upgrade as credit; it stays with its owner.',
          );
        const owner = await trx('users').where({ id: purchase.userId }).first('id', 'email');
        if (owner.email.toLowerCase() === recipientEmail.toLowerCase())
          throw new AppError('validation-failed', 'This purchase already belongs to that address.', {
            email: 'is the current owner',
          });
        await trx('products').where({ id: purchase.productId }).forUpdate().first('id'); // as accept does
        const recipient = await findOrCreateUserByEmail(trx, recipientEmail, { verified: false });
        await refuseIfHolding(trx, recipient, purchase.productId);
        const now = clock.now();
        await trx('purchaseUserTransfers')
          .where({ purchaseId })
          .whereIn('transferState', OPEN_TRANSFER_STATES)
          .update({ transferState: 'CANCELED', canceledAt: now });
        const [row] = await trx('purchaseUserTransfers')
          .insert({
            purchaseId,
            sourceUserId: owner.id,
            targetUserId: recipient.id,
            transferState: 'COMPLETED',
            expiresAt: now,
            confirmedAt: now,
            completedAt: now,
          })
          .returning('*');
        const { customerIdentifier } = await moveOwnership(trx, purchase, recipient.id);
        await recordAudit(trx, {
          actor,
          action: 'transfer.moved-by-support',
          resource: 'purchases',
          recordId: purchaseId,
          before: { userId: owner.id, email: owner.email },
          after: { userId: recipient.id, email: recipient.email },
          requestId,
        });
        // Both people hear of it: the new owner so they can sign in, the old one so it is no surprise.
        const product = await trx('products').where({ id: purchase.productId }).first('name');
        await outbox.enqueue(
          trx,
          purchaseReceivedEmail(recipient.email, product.name, new URL('/purchases', config.publicUrl).toString()),
        );
        await outbox.enqueue(trx, transferCompletedEmail(owner.email, recipient.email, product.name));
        return { view: await view(trx, row as TransferRow), customerIdentifier, email: recipient.email };
      });
      outbox.flushInBackground();
      if (outcome.customerIdentifier) await updateProviderCustomer(outcome.customerIdentifier, outcome.email);
      return outcome.view;
    },
  };

  async function updateProviderCustomer(identifier: string, email: string): Promise<void> {
    // Ours is the record of truth; the provider's copy of the email only affects its receipts, so a failure is logged.
    await provider
      .updateCustomerEmail(identifier, email)
      .catch((error: unknown) =>
        logger.warn({ err: error, identifier }, 'updating the provider customer email failed'),
      );
  }
}

export type TransferService = ReturnType<typeof transferService>;
