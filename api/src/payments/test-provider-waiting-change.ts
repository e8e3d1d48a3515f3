import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import type { SubscriptionPriceChange } from './provider';

interface Row {
  status: string;
  amount: number;
  metadata: Record<string, string>;
}

/** The new terms in place, the metadata carrying our price id and seats (and, while waiting, the period's amount). */
async function setTerms(db: Db, identifier: string, terms: SubscriptionPriceChange, waiting: boolean): Promise<void> {
  await db.transaction(async (trx) => {
    const sub = (await trx('testProviderSubscriptions').where({ identifier }).forUpdate().first()) as Row | undefined;
    if (!sub) throw new AppError('not-found', 'No such test subscription.');
    if (sub.status !== 'active' && sub.status !== 'trialing')
      throw new AppError('subscription-past-due', 'This subscription cannot change its price now.');
    // The price the current period was billed at: a later switch in it credits that, not the price waiting.
    const periodAmount = sub.metadata.periodAmount ?? String(sub.amount);
    const metadata: Record<string, string> = {
      ...sub.metadata,
      priceId: terms.priceId,
      quantity: String(terms.quantity),
    };
    if (waiting) metadata.periodAmount = periodAmount;
    else delete metadata.periodAmount;
    await trx('testProviderSubscriptions')
      .where({ identifier })
      .update({
        amount: terms.amount,
        interval: terms.interval,
        quantity: terms.quantity,
        metadata: JSON.stringify(metadata),
      });
  });
}

/**
 * The test provider's switch at the period's end (docs/domain.md §22): nothing billed now, the next renewal bills the
 * new terms; `keepTestPrice` drops it, the next renewal billing the terms of the period paid.
 */
export const changeTestPriceAtPeriodEnd = (deps: { db: Db }, identifier: string, change: SubscriptionPriceChange) =>
  setTerms(deps.db, identifier, change, true);

export const keepTestPrice = (deps: { db: Db }, identifier: string, current: SubscriptionPriceChange) =>
  setTerms(deps.db, identifier, current, false);
