import type { Knex } from 'knex';
import type { RecipientType } from '../shared/finance';
import { adjustmentLines, saleLines, shareOf, type Line } from '../shared/split-ledger';

export type LedgerKind = 'sale' | 'refund' | 'dispute' | 'dispute-won';

export interface ChargeFacts {
  id: string;
  amount: number;
  /** Tax inside the amount: the school collects it for the tax office, so it is nobody's revenue. */
  taxAmount: number;
  fee: number;
  currency: string;
  productId: string;
}

async function chargeFacts(trx: Knex.Transaction, chargeId: string): Promise<ChargeFacts> {
  return trx('merchantCharges as ch')
    .join('merchantProducts as mp', 'mp.id', 'ch.merchantProductId')
    .where('ch.id', chargeId)
    .first('ch.id', 'ch.amount', 'ch.taxAmount', 'ch.fee', 'ch.currency', 'mp.productId');
}

/** A product's revenue splits as the ledger divides a sale by them (in the order they were made). */
export interface RevenueSplit {
  type: RecipientType;
  userId: string | null;
  percent: string | number;
}

/** A product's revenue splits as committed when this statement runs. */
export const splitsOf = (trx: Knex.Transaction, productId: string): Promise<RevenueSplit[]> =>
  trx('productRevenueSplits').where({ productId }).orderBy('createdAt').select('type', 'userId', 'percent');

/** A charge's sale lines from its product's splits: they sum to amount − tax − fee. */
function saleLinesOf(charge: ChargeFacts, splits: RevenueSplit[]): Line[] {
  return saleLines(
    charge.amount - charge.taxAmount,
    charge.fee,
    splits.map((s) => ({ type: s.type, userId: s.userId, share: shareOf(s.percent) })),
  );
}

function lineRows(charge: ChargeFacts, kind: LedgerKind, lines: Line[], reference: string | null) {
  return lines
    .filter((l) => l.amount !== 0 || kind === 'sale')
    .map((l) => ({
      merchantChargeId: charge.id,
      productId: charge.productId,
      recipientType: l.type,
      userId: l.userId,
      kind,
      amount: l.amount,
      currency: charge.currency,
      reference,
    }));
}

async function insertLines(
  trx: Knex.Transaction,
  charge: ChargeFacts,
  kind: LedgerKind,
  lines: Line[],
  reference: string | null,
): Promise<void> {
  const rows = lineRows(charge, kind, lines, reference);
  if (rows.length) await trx('splitLines').insert(rows);
}

/**
 * The split ledger's writes, always inside the transaction that changes the money (fulfilment, refunds,
 * disputes), so the ledger and the charge never disagree.
 */
export const ledger = {
  /**
   * A charge's sale lines, from the product's splits at the moment of sale; they sum to amount − tax − fee. The
   * charge is read unless the caller that just wrote it gives its facts.
   */
  async recordSale(trx: Knex.Transaction, sold: string | ChargeFacts): Promise<void> {
    const charge = typeof sold === 'string' ? await chargeFacts(trx, sold) : sold;
    await insertLines(trx, charge, 'sale', saleLinesOf(charge, await splitsOf(trx, charge.productId)), null);
  },

  /**
   * The insert of a charge's sale lines, from the product's splits as the caller read them (under the product's
   * lock), for the caller to send with the charge's own insert (fulfilment sends both in one statement). A sale
   * always has lines.
   */
  saleInsert(trx: Knex.Transaction, charge: ChargeFacts, splits: RevenueSplit[]): Knex.QueryBuilder {
    return trx('splitLines').insert(ledger.saleRows(charge, splits));
  },

  /** `saleInsert`'s rows, for a caller that writes several charges' lines in one insert. */
  saleRows(charge: ChargeFacts, splits: RevenueSplit[]): Record<string, unknown>[] {
    return lineRows(charge, 'sale', saleLinesOf(charge, splits), null);
  },

  /**
   * Revenue leaving (negative: refunds, disputes) or coming back (a won dispute), spread like the sale: `amount` is
   * net of tax (the caller takes the tax's share out of the money that moved).
   */
  async recordAdjustment(
    trx: Knex.Transaction,
    chargeId: string,
    amount: number,
    kind: Exclude<LedgerKind, 'sale'>,
    reference: string,
  ): Promise<void> {
    if (amount === 0) return;
    const charge = await chargeFacts(trx, chargeId);
    const sale: Line[] = (await trx('splitLines')
      .where({ merchantChargeId: chargeId, kind: 'sale' })
      .orderBy('id')
      .select('recipientType as type', 'userId', 'amount')) as Line[];
    await insertLines(trx, charge, kind, adjustmentLines(amount, sale), reference);
  },
};
