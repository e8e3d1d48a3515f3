import type { Knex } from 'knex';
import type { ModelObject } from 'objection';
import type { Checkout } from '../models';
import { prepared } from '../../db/prepared';

/**
 * The SQL of checkout rows and their provider sessions. Every query module of checkout takes the connection or
 * transaction it runs on: the service decides the transaction, and the lock order stays visible there.
 */

export type Conn = Knex | Knex.Transaction;

/** A row of `checkouts` (the model does not declare expires_at, which the expiry sweep reads). */
export type CheckoutRow = ModelObject<Checkout> & { expiresAt: Date };

/** A checkout with its provider session's identifier (null while none is recorded, and for free checkouts). */
export type FoundCheckout = CheckoutRow & { sessionIdentifier: string | null };

/** Inserts one row and answers its id. */
export async function insertRow(trx: Knex.Transaction, table: string, row: object): Promise<string> {
  const [inserted] = await trx(table).insert(row).returning('id');
  return inserted.id;
}

const withSession = (db: Conn) => db('checkouts as c').leftJoin('merchantSessions as s', 's.id', 'c.merchantSessionId');
const FOUND = ['c.*', 's.identifier as sessionIdentifier'];

export const findCheckout = (db: Conn, checkoutId: string) =>
  withSession(db)
    .where('c.id', checkoutId)
    .first(...FOUND) as Promise<FoundCheckout | undefined>;

/** A provider's event, by the account it came to and its id there. */
export interface EventKey {
  merchantAccountId: string;
  identifier: string;
}

/** The checkout of a session; with `event`, also whether that event was processed already (in the same read). */
export const findCheckoutOfSession = (db: Conn, sessionIdentifier: string, event?: EventKey) =>
  withSession(db)
    .where('s.identifier', sessionIdentifier)
    .first(
      ...FOUND,
      ...(event
        ? [
            db.raw('EXISTS (?) AS event_processed', [
              db('merchantEvents').where(event).whereNotNull('processedAt').select(db.raw('1')),
            ]),
          ]
        : []),
    ) as Promise<(FoundCheckout & { eventProcessed?: boolean }) | undefined>;

/** A provider's event asking for the settlement of its session's checkout. */
export interface SessionAsk {
  sessionIdentifier: string;
  event: EventKey;
}

/**
 * `findCheckoutOfSession` for several events in one read: for each ask (by its place in `asks`), its session's
 * checkout and whether its event was processed already; an ask whose session is unknown has no row.
 */
export async function findCheckoutsOfSessions(
  db: Conn,
  asks: SessionAsk[],
): Promise<((FoundCheckout & { eventProcessed: boolean }) | undefined)[]> {
  // Arrays, not a VALUES list: the statement's text (and so its plan) is the same however many are asked.
  const unnested = db.raw('unnest(?::int[], ?::text[], ?::uuid[], ?::text[])', [
    asks.map((_, i) => i),
    asks.map((ask) => ask.sessionIdentifier),
    asks.map((ask) => ask.event.merchantAccountId),
    asks.map((ask) => ask.event.identifier),
  ]);
  const rows = (await withSession(db)
    .joinRaw('JOIN ? AS ask (n, session, account, event) ON ask.session = s.identifier', [unnested])
    .select(
      ...FOUND,
      'ask.n as askIndex',
      db.raw(
        'EXISTS (SELECT 1 FROM merchant_events e WHERE e.merchant_account_id = ask.account AND e.identifier = ask.event AND e.processed_at IS NOT NULL) AS event_processed',
      ),
    )
    .options(prepared(db as Knex, 'checkouts-of-sessions'))) as (FoundCheckout & {
    eventProcessed: boolean;
    askIndex: number;
  })[];
  const found: ((FoundCheckout & { eventProcessed: boolean }) | undefined)[] = asks.map(() => undefined);
  for (const { askIndex, ...row } of rows) found[askIndex] = row;
  return found;
}

export async function checkoutIdOfSession(db: Conn, sessionIdentifier: string): Promise<string | null> {
  const row = await withSession(db).where('s.identifier', sessionIdentifier).first('c.id');
  return row?.id ?? null;
}

/**
 * Open checkouts past `now`, oldest first, that may be ended: with a provider session, free, or past `graceEnd`
 * (the session was never recorded); `tried` are skipped.
 */
export const dueCheckouts = (db: Conn, now: Date, graceEnd: Date, tried: string[], limit: number) =>
  withSession(db)
    .where('c.status', 'open')
    .where('c.expiresAt', '<=', now)
    .where((q) =>
      q.whereNotNull('c.merchantSessionId').orWhere('c.amountTotal', 0).orWhere('c.expiresAt', '<=', graceEnd),
    )
    .whereNotIn('c.id', tried)
    .orderBy('c.expiresAt')
    .limit(limit)
    .select(...FOUND) as Promise<FoundCheckout[]>;

export async function insertCheckout(
  trx: Knex.Transaction,
  row: Omit<CheckoutRow, 'id' | 'status' | 'purchaseId' | 'merchantSessionId' | 'createdAt' | 'updatedAt'>,
): Promise<string> {
  return insertRow(trx, 'checkouts', row);
}

/** Records the provider session a checkout is paid through. */
export async function recordSession(
  trx: Knex.Transaction,
  accountId: string,
  identifier: string,
  checkoutId: string,
): Promise<void> {
  const [session] = await trx('merchantSessions').insert({ merchantAccountId: accountId, identifier }).returning('id');
  await trx('checkouts').where({ id: checkoutId }).update({ merchantSessionId: session.id });
}

/** Moves a checkout from open to canceled; answers its coupon reservation, or nothing when it was not open. */
export async function cancelOpenCheckout(
  trx: Knex.Transaction,
  checkoutId: string,
): Promise<Pick<CheckoutRow, 'couponId' | 'couponReserved'> | undefined> {
  const [checkout] = await trx('checkouts')
    .where({ id: checkoutId, status: 'open' })
    .update({ status: 'canceled' })
    .returning(['couponId', 'couponReserved']);
  return checkout;
}

export const extendExpiry = (db: Conn, checkoutId: string, expiresAt: Date) =>
  db('checkouts').where({ id: checkoutId, status: 'open' }).update({ expiresAt });
