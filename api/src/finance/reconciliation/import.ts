import type { Knex } from 'knex';
import { AppError } from '../../shared/errors';
import type { ProcessorLedger } from '../../payments/provider';
import type { Period, ReconciliationDeps } from './deps';
import { matchTransactions } from './match';
import type { ImportAnswer } from './schemas';

/** The provider's ledger, or a refusal when it tells none. */
export function ledgerOf({ provider }: Pick<ReconciliationDeps, 'provider'>): ProcessorLedger {
  if (!provider.ledger)
    throw new AppError('reconciliation-not-available', 'The payment provider does not tell its balance transactions.');
  return provider.ledger;
}

/**
 * Which of these charge ids the books hold, as one array parameter: a year's charges are more ids than a statement
 * may bind one by one (65,535).
 */
export async function knownCharges(db: Knex, account: string, identifiers: string[]): Promise<Set<string>> {
  const rows = (await db('merchantCharges')
    .where({ merchantAccountId: account })
    .whereRaw('identifier = ANY(?::text[])', [identifiers])
    .pluck('identifier')) as unknown[];
  return new Set(rows.map(String));
}

/**
 * Imports what the processor says happened in a period (its payouts to the bank and its balance transactions) and
 * matches it to the books. Upserted by the processor's ids, so an import run again, or by two replicas at once,
 * changes nothing it already has; a transaction paid out since the last import gets its payout. A payout's own
 * movement is the payout row, not a transaction to match.
 */
export async function importPeriod(deps: ReconciliationDeps, period: Period): Promise<ImportAnswer> {
  const { db, provider } = deps;
  const ledger = ledgerOf(deps);
  const account = await provider.accountId();
  const [payouts, transactions] = [await ledger.listPayouts(period), await ledger.listBalanceTransactions(period)];
  const movements = transactions.filter((t) => t.kind !== 'payout');
  // Charges the books do not know are asked for their checkout (few): a missed webhook is then recoverable.
  const known = await knownCharges(
    db,
    account,
    movements.filter((t) => t.kind === 'charge').map((t) => t.sourceIdentifier!),
  );
  const checkouts = new Map<string, string | null>();
  for (const t of movements)
    if (t.kind === 'charge' && t.sourceIdentifier && !known.has(t.sourceIdentifier))
      checkouts.set(t.sourceIdentifier, await ledger.checkoutOfCharge(t.sourceIdentifier));

  await db.transaction(async (trx) => {
    if (payouts.length)
      await trx('processorPayouts')
        .insert(
          payouts.map((p) => ({
            merchantAccountId: account,
            identifier: p.identifier,
            amount: p.amount,
            currency: p.currency,
            status: p.status,
            arrivalOn: p.arrivalOn,
            createdAt: p.created,
          })),
        )
        .onConflict(['merchantAccountId', 'identifier'])
        .merge(['status', 'amount', 'arrivalOn']);
    const payoutIds = new Map(
      (
        (await trx('processorPayouts')
          .where({ merchantAccountId: account })
          .whereRaw('identifier = ANY(?::text[])', [
            [...new Set(movements.map((t) => t.payoutIdentifier).filter((p) => p !== null))],
          ])
          .select('id', 'identifier')) as { id: string; identifier: string }[]
      ).map((p) => [p.identifier, p.id]),
    );
    for (let i = 0; i < movements.length; i += 500) {
      const rows = movements.slice(i, i + 500).map((t) => ({
        merchantAccountId: account,
        identifier: t.identifier,
        kind: t.kind,
        sourceIdentifier: t.sourceIdentifier,
        chargeIdentifier: t.chargeIdentifier,
        checkoutIdentifier: (t.sourceIdentifier && checkouts.get(t.sourceIdentifier)) ?? null,
        amount: t.amount,
        fee: t.fee,
        net: t.net,
        currency: t.currency,
        createdAt: t.created,
        processorPayoutId: (t.payoutIdentifier && payoutIds.get(t.payoutIdentifier)) ?? null,
      }));
      // What the processor says now wins (a fee it changed); a payout once known is kept.
      await trx('processorBalanceTransactions')
        .insert(rows)
        .onConflict(['merchantAccountId', 'identifier'])
        .merge({
          amount: trx.raw('excluded.amount'),
          fee: trx.raw('excluded.fee'),
          net: trx.raw('excluded.net'),
          checkoutIdentifier: trx.raw(
            'coalesce(excluded.checkout_identifier, processor_balance_transactions.checkout_identifier)',
          ),
          processorPayoutId: trx.raw(
            'coalesce(excluded.processor_payout_id, processor_balance_transactions.processor_payout_id)',
          ),
        });
    }
  });
  const matched = await matchTransactions(db, account, provider.label);
  return { payouts: payouts.length, transactions: movements.length, matched };
}
