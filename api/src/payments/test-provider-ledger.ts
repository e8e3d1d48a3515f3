import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../db/connection';
import type { BalanceKind, ProcessorLedger } from './provider';

type Queryable = Knex | Knex.Transaction;

/** Fees as a card processor would take them: 2.9 % + 30 ¢ (none on nothing). */
export function testProviderFee(amount: number): number {
  return amount > 0 ? Math.round(amount * 0.029) + 30 : 0;
}

/** One movement of the test provider's balance, written with what moved the money (a payment, a refund). */
export async function recordMovement(
  db: Queryable,
  movement: {
    kind: BalanceKind;
    sourceIdentifier: string;
    chargeIdentifier: string;
    amount: number;
    fee?: number;
    currency: string;
  },
): Promise<void> {
  await db('testProviderBalanceTransactions').insert({
    identifier: `txn_test_${randomBytes(12).toString('hex')}`,
    fee: 0,
    ...movement,
  });
}

/**
 * The test provider's payout to the school's bank: every movement not yet paid out, one payout per currency, in one
 * statement each (a movement is carried by one payout only). Answers the payouts' ids.
 */
export async function payOut(db: Db): Promise<string[]> {
  return db.transaction(async (trx) => {
    // The unpaid movements are locked first: a movement written meanwhile waits for the next payout.
    const unpaid = (await trx('testProviderBalanceTransactions')
      .whereNull('payoutIdentifier')
      .forUpdate()
      .select('currency')) as { currency: string }[];
    const currencies = [...new Set(unpaid.map((row) => row.currency))].map((currency) => ({ currency }));
    const made: string[] = [];
    for (const { currency } of currencies) {
      const identifier = `po_test_${randomBytes(12).toString('hex')}`;
      await trx.raw(
        `WITH payout AS (
           INSERT INTO test_provider_payouts (identifier, amount, currency)
           SELECT ?, sum(amount - fee), ? FROM test_provider_balance_transactions
           WHERE payout_identifier IS NULL AND currency = ?
           RETURNING identifier)
         UPDATE test_provider_balance_transactions SET payout_identifier = (SELECT identifier FROM payout)
         WHERE payout_identifier IS NULL AND currency = ?`,
        [identifier, currency, currency, currency],
      );
      made.push(identifier);
    }
    return made;
  });
}

/** The test provider's balance and payouts, read from its own tables as Stripe's are read from its API. */
export function testProviderLedger(db: Db): ProcessorLedger {
  return {
    async listBalanceTransactions({ from, to }) {
      const rows = await db('testProviderBalanceTransactions as t')
        .leftJoin('testProviderPayouts as p', 'p.identifier', 't.payoutIdentifier')
        // A period's movements, and every movement of a payout made in it.
        .where((q) => q.where('t.createdAt', '>=', from).andWhere('t.createdAt', '<', to))
        .orWhere((q) => q.where('p.createdAt', '>=', from).andWhere('p.createdAt', '<', to))
        .select('t.*');
      return rows.map((row) => ({
        identifier: row.identifier,
        kind: row.kind,
        sourceIdentifier: row.sourceIdentifier,
        chargeIdentifier: row.chargeIdentifier,
        amount: row.amount,
        fee: row.fee,
        net: row.amount - row.fee,
        currency: row.currency,
        created: row.createdAt,
        payoutIdentifier: row.payoutIdentifier,
      }));
    },

    async listPayouts({ from, to }) {
      const rows = await db('testProviderPayouts').where('createdAt', '>=', from).andWhere('createdAt', '<', to);
      return rows.map((row) => ({
        identifier: row.identifier,
        amount: Number(row.amount),
        currency: row.currency,
        status: 'paid',
        created: row.createdAt,
        arrivalOn: row.createdAt,
      }));
    },

    async checkoutOfCharge(chargeIdentifier) {
      const row = await db('testProviderSessions').where({ chargeIdentifier }).first('identifier');
      return row?.identifier ?? null;
    },
  };
}
