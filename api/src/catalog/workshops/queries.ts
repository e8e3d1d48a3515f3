import type { Knex } from 'knex';
import { GRANTING_STATUSES } from '../../shared/purchase-status';
import type { WorkshopSession } from './models';

type Conn = Knex | Knex.Transaction;

export type SessionRow = Pick<
  WorkshopSession,
  'id' | 'productId' | 'title' | 'startsAt' | 'endsAt' | 'timeZone' | 'joinUrl' | 'sequence'
>;

const SESSION_COLUMNS = [
  's.id',
  's.productId',
  's.title',
  's.startsAt',
  's.endsAt',
  's.timeZone',
  's.joinUrl',
  's.sequence',
];

/** Who holds a product themselves (docs/domain.md §7: a team purchase grants nothing until its buyer takes a seat). */
const holds = (q: Knex.QueryBuilder, purchases = 'p') =>
  q.whereNull(`${purchases}.bulkCouponId`).whereIn(`${purchases}.status`, GRANTING_STATUSES);

/** The sessions of these products not over at `now`, soonest first. */
export async function sessionsNotOver(db: Conn, productIds: string[], now: Date | Knex.Raw): Promise<SessionRow[]> {
  if (!productIds.length) return [];
  return db('workshopSessions as s')
    .whereIn('s.productId', productIds)
    .where('s.endsAt', '>', now)
    .orderBy([{ column: 's.startsAt' }, { column: 's.id' }])
    .select(SESSION_COLUMNS);
}

/** An active product's name, or undefined (archived or missing: its page is gone). */
export async function activeProduct(db: Conn, productId: string): Promise<{ id: string; name: string } | undefined> {
  return db('products').where({ id: productId, status: 'active' }).first('id', 'name');
}

/** The live workshops a learner holds, by name. */
export async function heldWorkshops(
  db: Conn,
  userId: string,
): Promise<{ id: string; name: string; slug: string | null }[]> {
  return db('products as pr')
    .where('pr.productType', 'live')
    .whereExists((q) =>
      holds(q.select(1).from('purchases as p').whereRaw('p.product_id = pr.id').where('p.userId', userId)),
    )
    .orderBy([{ column: 'pr.name' }, { column: 'pr.id' }])
    .select('pr.id', 'pr.name', 'pr.slug');
}

/** One session with its product's name and slug. */
export async function sessionWithProduct(
  db: Conn,
  sessionId: string,
): Promise<(SessionRow & { productName: string; productSlug: string | null }) | undefined> {
  return db('workshopSessions as s')
    .join('products as pr', 'pr.id', 's.productId')
    .where('s.id', sessionId)
    .first([...SESSION_COLUMNS, 'pr.name as productName', 'pr.slug as productSlug']);
}

/** Whether the user holds the product themselves. */
export async function holdsProduct(db: Conn, userId: string, productId: string): Promise<boolean> {
  return Boolean(
    await holds(db('purchases as p').where({ 'p.userId': userId, 'p.productId': productId })).first('p.id'),
  );
}

export type ReminderKind = 'day' | 'hour';

export interface ClaimedReminder {
  id: string;
  sessionId: string;
  userId: string;
  email: string;
  kind: ReminderKind;
}

/**
 * Records the reminders of `kind` due now: for each session starting in (`from`, `to`] and each of its product's
 * holders, one row, unless it exists. The unique key decides between concurrent sweeps (the second waits on the
 * first's uncommitted row, then skips it), so each reminder is claimed, and sent, exactly once. Answers the claimed.
 */
export async function claimReminders(
  trx: Knex.Transaction,
  kind: ReminderKind,
  from: Date,
  to: Date,
): Promise<ClaimedReminder[]> {
  const { rows } = await trx.raw(
    `WITH due AS (
       SELECT DISTINCT s.id AS session_id, p.user_id
         FROM workshop_sessions s
         JOIN purchases p ON p.product_id = s.product_id
        WHERE s.starts_at > :from AND s.starts_at <= :to
          AND p.bulk_coupon_id IS NULL AND p.status IN (${GRANTING_STATUSES.map((_, i) => `:status${i}`).join(', ')})
     ), claimed AS (
       INSERT INTO workshop_reminders (session_id, user_id, kind)
       SELECT session_id, user_id, :kind FROM due
        ORDER BY session_id, user_id -- one order for every sweep: concurrent ones wait on each other, never deadlock
       ON CONFLICT ON CONSTRAINT workshop_reminders_once DO NOTHING
       RETURNING id, session_id, user_id, kind
     )
     SELECT c.id, c.session_id AS "sessionId", c.user_id AS "userId", c.kind, u.email
       FROM claimed c JOIN users u ON u.id = c.user_id
      ORDER BY c.session_id, u.email`,
    { from, to, kind, ...Object.fromEntries(GRANTING_STATUSES.map((status, i) => [`status${i}`, status])) },
  );
  return rows as ClaimedReminder[];
}

/** Notes which email carried a reminder (the console can follow it to the outbox). */
export async function linkReminderEmail(trx: Knex.Transaction, reminderId: string, emailId: string): Promise<void> {
  await trx('workshopReminders').where({ id: reminderId }).update({ outboxEmailId: emailId });
}

/** Sessions by id, for the reminders claimed in one sweep. */
export async function sessionsByIds(
  db: Conn,
  ids: string[],
): Promise<Map<string, SessionRow & { productName: string; productSlug: string | null }>> {
  const rows: (SessionRow & { productName: string; productSlug: string | null })[] = ids.length
    ? await db('workshopSessions as s')
        .join('products as pr', 'pr.id', 's.productId')
        .whereIn('s.id', ids)
        .select([...SESSION_COLUMNS, 'pr.name as productName', 'pr.slug as productSlug'])
    : [];
  return new Map(rows.map((row) => [row.id, row]));
}
