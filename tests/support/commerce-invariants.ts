import { expect } from 'vitest';
import type { Db } from '../../api/src/db/connection';
import { GRANTING_STATUSES } from '../../api/src/shared/purchase-status';
import { OPEN_TRANSFER_STATES } from '../../api/src/shared/transfer-states';

/** One charge's money, and the revenue of its open or lost disputes (each one's sum less the tax it recorded). */
interface LedgerFacts {
  id: string;
  amount: number;
  fee: number;
  tax: number;
  refunded: number;
  refundedTax: number;
  lines: string;
  disputed: string;
}

/**
 * The commerce model's invariants (docs/domain.md §4, §7–§9) read from the database alone, for any test that changes
 * commerce rows another way (the model-based test checks the same against its model, tests/reliability).
 */
export async function expectCommerceInvariants(db: Db): Promise<void> {
  // Teams: the coupon counts its members exactly, never more than the seats bought.
  const teams = await db('coupons as c')
    .whereNotNull('c.bulkPurchaseId')
    .select(
      'c.id',
      'c.maxUses',
      'c.usedCount',
      db('purchases as s')
        .whereRaw('s.redeemed_bulk_coupon_id = c.id')
        .whereIn('s.status', GRANTING_STATUSES)
        .count('*')
        .as('seated'),
    );
  for (const team of teams) {
    expect(team.usedCount, `team coupon ${team.id}`).toBe(Number(team.seated));
    expect(team.usedCount).toBeLessThanOrEqual(team.maxUses);
  }
  // A limited coupon: used = fulfilled checkouts + live reservations ≤ maxUses.
  const limited = await db('coupons as c')
    .whereNull('c.bulkPurchaseId')
    .whereNot('c.maxUses', -1)
    .select(
      'c.id',
      'c.maxUses',
      'c.usedCount',
      db('checkouts as k')
        .whereRaw('k.coupon_id = c.id')
        .where((q) => q.where('k.status', 'fulfilled').orWhere({ 'k.status': 'open', 'k.couponReserved': true }))
        .count('*')
        .as('uses'),
    );
  for (const coupon of limited) {
    expect(coupon.usedCount, `coupon ${coupon.id}`).toBe(Number(coupon.uses));
    expect(coupon.usedCount).toBeLessThanOrEqual(coupon.maxUses);
  }
  // The ledger: each charge's lines add up to its revenue: what it charged less tax and fee, less what refunds gave
  // back net of their tax, less the revenue of open or lost disputes (the tax each recorded aside). Tax is never revenue.
  const { rows: ledger } = await db.raw(
    `SELECT c.id, c.amount, c.fee, c.tax_amount AS tax, c.refund_amount AS refunded, c.refunded_tax AS "refundedTax",
            coalesce(l.lines, 0) AS lines,
            coalesce(d.revenue, 0) AS disputed
       FROM merchant_charges c
       LEFT JOIN (SELECT merchant_charge_id, sum(amount) AS lines FROM split_lines GROUP BY 1) l
         ON l.merchant_charge_id = c.id
       LEFT JOIN (SELECT merchant_charge_id, sum(amount - tax_amount) AS revenue FROM merchant_disputes
                   WHERE status IN ('open', 'lost') GROUP BY 1) d ON d.merchant_charge_id = c.id`,
  );
  for (const charge of ledger as LedgerFacts[]) {
    const revenue =
      charge.amount - charge.tax - charge.fee - (charge.refunded - charge.refundedTax) - Number(charge.disputed);
    expect(Number(charge.lines), `ledger of charge ${charge.id}`).toBe(revenue);
  }
  // A charge's invoice carries the tax the charge did (a correction changes who is billed, never the tax).
  const { rows: taxed } = await db.raw(
    `SELECT c.id, c.tax_amount AS charged, i.tax_amount AS invoiced
       FROM merchant_charges c JOIN invoices i ON i.merchant_charge_id = c.id
      WHERE i.kind = 'invoice' AND i.corrects_id IS NULL`,
  );
  for (const row of taxed as { id: string; charged: number; invoiced: number }[])
    expect(row.invoiced, `tax on the invoice of charge ${row.id}`).toBe(row.charged);
  // Nobody holds two granting copies of a product (a source spent on an upgrade aside).
  const doubles = await db('purchases as p')
    .whereIn('p.status', GRANTING_STATUSES)
    .whereNull('p.bulkCouponId')
    .whereNotExists(db('purchases as u').whereRaw('u.upgraded_from_id = p.id'))
    .groupBy('p.userId', 'p.productId')
    .havingRaw('count(*) > 1')
    .select('p.userId', 'p.productId');
  expect(doubles).toEqual([]);
  // An open transfer belongs to its purchase's owner, and is offered by nobody else.
  const strays = await db('purchaseUserTransfers as t')
    .join('purchases as p', 'p.id', 't.purchaseId')
    .whereIn('t.transferState', OPEN_TRANSFER_STATES)
    .whereRaw('t.source_user_id <> p.user_id')
    .select('t.id');
  expect(strays).toEqual([]);
}

/** Each row of a table (or these of its columns) as a digest, by id: compared to tell which rows changed. */
export async function rowDigests(db: Db, table: string, columns: string[] = []): Promise<Map<string, string>> {
  const row = columns.length ? `row(${columns.join(', ')})` : 't';
  const { rows } = await db.raw(`SELECT id::text AS key, md5(${row}::text) AS digest FROM ${table} t`);
  return new Map((rows as { key: string; digest: string }[]).map((r) => [r.key, r.digest]));
}

/** The ids whose rows differ between two snapshots of a table (added and removed rows included). */
export function changedKeys(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((key) => before.get(key) !== after.get(key)).sort();
}
