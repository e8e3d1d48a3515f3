import type { Knex } from 'knex';
import { recordAudit, SYSTEM_ACTOR } from '../../audit/record';
import { ledger } from '../../finance/ledger';
import { taxShare } from '../../tax/amounts';
import { GRANTING_STATUSES, type PurchaseStatus } from '../models';
import { insertTeamCoupon } from '../checkout/purchase-rows';
import { OPEN_TRANSFER_STATES } from '../../shared/transfer-states';
import { endAccess } from './end-access';
import type { LifecycleDeps } from './lifecycle-deps';
import { chargeByIdentifier, purchasesOfCharge, type ChargeRow } from './locks';
import { moveStatus } from './status-edges';

/** A provider's dispute as its events describe it. */
export interface DisputeFields {
  identifier: string;
  chargeIdentifier: string;
  amount: number;
  reason: string | null;
  /** The provider's deadline for our evidence; null when it gave none (an inquiry, or a closed dispute). */
  evidenceDueBy?: Date | null;
  /** Whether the provider withdrew the amount: an inquiry withdraws nothing (docs/domain.md §20). */
  withdrawn?: boolean;
  /** The dispute fee the provider's withdrawal carried; null or absent while not told. */
  fee?: number | null;
  /**
   * What the processor settled (docs/domain.md §20): the withdrawal's amount in its settlement currency, and the won
   * dispute's reversal, each at its own rate; null or absent while not told.
   */
  settlement?: { amount: number; currency: string; exchangeRate: number | null; reversalAmount: number | null } | null;
}

type Deps = Pick<LifecycleDeps, 'db' | 'logger'>;

/** The charge a dispute event names, locked; one we do not know is logged and the event ignored. */
async function disputedCharge(
  { logger }: Deps,
  trx: Knex.Transaction,
  accountId: string,
  chargeIdentifier: string,
): Promise<ChargeRow | undefined> {
  const charge = await chargeByIdentifier(trx, accountId, chargeIdentifier);
  if (!charge) logger.warn({ chargeIdentifier }, 'dispute for a charge we do not know; ignored');
  return charge;
}

/** The tax a disputed sum carries: its share of the charge's tax, in the charge's proportion. */
const taxOf = (charge: ChargeRow, sum: number) => taxShare(sum, charge.amount, charge.taxAmount);

/** The revenue a disputed sum carries: the sum less its tax (never revenue). */
const revenueOf = (charge: ChargeRow, sum: number) => sum - taxOf(charge, sum);

/**
 * Our record of a provider's dispute, as its events describe it, with its tax: a lost dispute gives that tax back
 * to the buyer without a credit note, and the tax report shows it.
 */
const disputeRecord = (accountId: string, charge: ChargeRow, dispute: DisputeFields) => ({
  merchantAccountId: accountId,
  identifier: dispute.identifier,
  merchantChargeId: charge.id,
  amount: dispute.amount,
  taxAmount: taxOf(charge, dispute.amount),
  reason: dispute.reason,
  evidenceDueBy: dispute.evidenceDueBy ?? null,
  withdrawn: dispute.withdrawn ?? true,
  fee: dispute.fee ?? null,
  settlementAmount: dispute.settlement?.amount ?? null,
  settlementCurrency: dispute.settlement?.currency ?? null,
  settlementExchangeRate: dispute.settlement?.exchangeRate ?? null,
  reversalSettlementAmount: dispute.settlement?.reversalAmount ?? null,
});

/**
 * A later event may tell the withdrawal, its fee and what was settled: once withdrawn it stays so, a fact once told is
 * kept (the settlement's facts together, as the event told them).
 */
const withdrawalMerged = (trx: Knex.Transaction, dispute: DisputeFields) => {
  const told = dispute.settlement ?? null;
  const settled = (column: string, value: string | number | null, type: string) =>
    trx.raw(`CASE WHEN ?::boolean THEN ?::${type} ELSE merchant_disputes.${column} END`, [told !== null, value]);
  return {
    withdrawn: trx.raw('merchant_disputes.withdrawn OR ?', [dispute.withdrawn ?? true]),
    fee: trx.raw('coalesce(?::int, merchant_disputes.fee)', [dispute.fee ?? null]),
    settlementAmount: settled('settlement_amount', told?.amount ?? null, 'int'),
    settlementCurrency: settled('settlement_currency', told?.currency ?? null, 'text'),
    settlementExchangeRate: settled('settlement_exchange_rate', told?.exchangeRate ?? null, 'float8'),
    reversalSettlementAmount: trx.raw(
      'CASE WHEN ?::boolean THEN coalesce(?::int, merchant_disputes.reversal_settlement_amount) ELSE merchant_disputes.reversal_settlement_amount END',
      [told !== null, told?.reversalAmount ?? null],
    ),
  };
};

/** `charge.dispute.created`: access ends while the dispute is open, unless it was already closed. */
export async function disputeOpened(deps: Deps, accountId: string, dispute: DisputeFields): Promise<void> {
  await deps.db.transaction(async (trx) => {
    const charge = await disputedCharge(deps, trx, accountId, dispute.chargeIdentifier);
    if (!charge) return;
    const [fresh] = await trx('merchantDisputes')
      .insert(disputeRecord(accountId, charge, dispute))
      .onConflict(['merchantAccountId', 'identifier'])
      .ignore()
      .returning('id');
    if (!fresh)
      await trx('merchantDisputes')
        .where({ merchantAccountId: accountId, identifier: dispute.identifier })
        .update(withdrawalMerged(trx, dispute));
    const row = await trx('merchantDisputes')
      .where({ merchantAccountId: accountId, identifier: dispute.identifier })
      .first('status');
    if (row.status !== 'open') return; // closed before this event arrived
    // The disputed amount is withdrawn while the dispute is open.
    if (fresh)
      await ledger.recordAdjustment(trx, charge.id, -revenueOf(charge, dispute.amount), 'dispute', dispute.identifier);
    for (const purchase of await purchasesOfCharge(trx, charge.id)) {
      if (!(await moveStatus(trx, purchase.id, 'Disputed', dispute.reason ?? 'disputed with the card issuer')))
        continue;
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
}

/** `charge.dispute.closed`: won gives access back; lost keeps it ended. A closed dispute never reopens. */
export async function disputeClosed(
  deps: Deps,
  accountId: string,
  dispute: DisputeFields & { won: boolean },
): Promise<void> {
  await deps.db.transaction(async (trx) => {
    const charge = await disputedCharge(deps, trx, accountId, dispute.chargeIdentifier);
    if (!charge) return;
    const status = dispute.won ? 'won' : 'lost';
    const before = await trx('merchantDisputes')
      .where({ merchantAccountId: accountId, identifier: dispute.identifier })
      .first('status');
    // The ledger follows the money: a won dispute returns what its opening withdrew; a lost one whose opening
    // we never saw withdraws it now. Repeated close events change nothing.
    if (before?.status === 'open' && dispute.won)
      await ledger.recordAdjustment(
        trx,
        charge.id,
        revenueOf(charge, dispute.amount),
        'dispute-won',
        dispute.identifier,
      );
    if (!before && !dispute.won)
      await ledger.recordAdjustment(trx, charge.id, -revenueOf(charge, dispute.amount), 'dispute', dispute.identifier);
    if (before && before.status !== 'open') return;
    await trx('merchantDisputes')
      .insert({ ...disputeRecord(accountId, charge, dispute), status, closedAt: trx.fn.now() })
      .onConflict(['merchantAccountId', 'identifier'])
      .merge({ status, closedAt: trx.fn.now(), ...withdrawalMerged(trx, dispute) });
    if (!dispute.won) return;
    const stillOpen = await trx('merchantDisputes').where({ merchantChargeId: charge.id, status: 'open' }).first('id');
    if (!stillOpen) await restoreAccess(trx, charge.id, dispute.identifier);
  });
}

/**
 * Whether the person bought the product again after this purchase and holds that copy (not a team purchase): a
 * regional copy an unlock was bought over came before it, so it never counts.
 */
const boughtAgain = async (trx: Knex.Transaction, purchase: { id: string; userId: string; productId: string }) =>
  Boolean(
    await trx('purchases')
      .where({ userId: purchase.userId, productId: purchase.productId })
      .whereNot({ id: purchase.id })
      .where('createdAt', '>', trx('purchases').where({ id: purchase.id }).select('createdAt'))
      .whereIn('status', GRANTING_STATUSES)
      .whereNull('bulkCouponId')
      .first('id'),
  );

/**
 * The last open dispute of a charge was won: each purchase it paid goes back to what it was (docs/domain.md §6.5).
 * One whose holder bought the product again meanwhile comes back as a one-seat team, a seat to give away, as any
 * second copy does (§5.5), never a silent duplicate; its transfer offers end (a team is not transferred).
 */
async function restoreAccess(trx: Knex.Transaction, chargeId: string, disputeIdentifier: string): Promise<void> {
  for (const purchase of await purchasesOfCharge(trx, chargeId)) {
    if (purchase.status !== 'Disputed') continue;
    const checkout = await trx('checkouts').where({ purchaseId: purchase.id }).first('restricted');
    const restored: PurchaseStatus = checkout?.restricted ? 'Restricted' : 'Valid';
    await moveStatus(trx, purchase.id, restored, null);
    const individual = !purchase.bulkCouponId && !purchase.redeemedBulkCouponId;
    const asSeat = restored === 'Valid' && individual && (await boughtAgain(trx, purchase));
    if (asSeat) {
      await insertTeamCoupon(trx, purchase.id, purchase.productId, 1);
      await trx('purchaseUserTransfers')
        .where({ purchaseId: purchase.id })
        .whereIn('transferState', OPEN_TRANSFER_STATES)
        .update({ transferState: 'CANCELED', canceledAt: trx.fn.now() });
    }
    await recordAudit(trx, {
      actor: SYSTEM_ACTOR,
      action: 'purchase.dispute-won',
      resource: 'purchases',
      recordId: purchase.id,
      before: { status: 'Disputed' },
      after: { status: restored, dispute: disputeIdentifier, ...(asSeat ? { seatsToGive: 1 } : {}) },
    });
  }
}
