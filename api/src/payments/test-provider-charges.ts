import type { Knex } from 'knex';

/**
 * The test provider's charges live in two tables: a checkout's (its session) and a subscription invoice's. A refund
 * reads and moves what was refunded of either, by the charge's id.
 */
const CHARGE_TABLES = ['testProviderSessions', 'testProviderSubscriptionInvoices'] as const;

/** What is refunded of the charge so far (0 for an unknown one). */
export async function refundedOf(trx: Knex.Transaction, chargeIdentifier: string): Promise<number> {
  for (const table of CHARGE_TABLES) {
    const row = await trx(table).where({ chargeIdentifier }).first('refunded');
    if (row) return row.refunded as number;
  }
  return 0;
}

/**
 * Adds `amount` to what is refunded of the charge in one conditional update, never past what was charged; a
 * negative amount gives a failed refund back. Undefined when the charge is unknown or has too little left.
 */
export async function moveRefunded(
  trx: Knex.Transaction,
  chargeIdentifier: string,
  amount: number,
): Promise<{ refunded: number; currency: string } | undefined> {
  for (const table of CHARGE_TABLES) {
    const [row] = await trx(table)
      .where({ chargeIdentifier })
      .whereRaw('refunded + ? BETWEEN 0 AND amount', [amount])
      .increment('refunded', amount)
      .returning(['refunded', 'currency']);
    if (row) return row as { refunded: number; currency: string };
  }
  return undefined;
}
