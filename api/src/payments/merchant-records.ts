import type { Knex } from 'knex';
import type { ProviderAccount } from './provider';

type Queryable = Knex | Knex.Transaction;

/**
 * Our row for the provider's account, created the first time it is used. Concurrent first uses race to insert the
 * same row, which is unique on label and on identifier: any conflict means it exists (ON CONFLICT (label) alone let
 * the identifier's unique index fail one of them with a 409).
 */
export async function merchantAccountId(db: Queryable, account: ProviderAccount): Promise<string> {
  await db('merchantAccounts').insert({ label: account.label, identifier: account.identifier }).onConflict().ignore();
  return (await db('merchantAccounts').where({ label: account.label }).first('id')).id;
}

/**
 * `merchantAccountId` for a provider's account, resolved once per process: the row is created outside any
 * transaction (a rolled-back one could not leave a remembered id pointing nowhere) and is never deleted. A failed
 * lookup is not remembered.
 */
export function rememberedAccountId(db: Knex, account: () => Promise<ProviderAccount>): () => Promise<string> {
  let id: Promise<string> | null = null;
  return () => {
    id ??= account().then((found) => merchantAccountId(db, found));
    id.catch(() => (id = null));
    return id;
  };
}

/** The active mirror of a product under an account, if the product was synced (or sold) before. */
export async function findMerchantProduct(
  db: Queryable,
  accountId: string,
  productId: string,
): Promise<{ id: string; identifier: string } | undefined> {
  return db('merchantProducts')
    .where({ merchantAccountId: accountId, productId, status: 'active' })
    .orderBy('createdAt')
    .first('id', 'identifier');
}

/** Records the provider's product for ours; a concurrent second writer of the same identifier gets the same row. */
export async function recordMerchantProduct(
  db: Queryable,
  accountId: string,
  productId: string,
  identifier: string,
): Promise<string> {
  await db('merchantProducts')
    .insert({ merchantAccountId: accountId, identifier, productId })
    .onConflict(['merchantAccountId', 'identifier'])
    .ignore();
  return (await db('merchantProducts').where({ merchantAccountId: accountId, identifier }).first('id')).id;
}

/** The mirror of a product, recorded under `fallbackIdentifier` when the provider keeps no product objects. */
export async function merchantProductId(
  db: Queryable,
  accountId: string,
  productId: string,
  fallbackIdentifier: string,
): Promise<string> {
  return (
    (await findMerchantProduct(db, accountId, productId))?.id ??
    recordMerchantProduct(db, accountId, productId, fallbackIdentifier)
  );
}
