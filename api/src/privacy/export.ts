import type { Knex } from 'knex';
import type { Db } from '../db/connection';
import { timeZoneOf } from '../identity/profile/prefs';
import { avatarFields } from '../media/images';
import { AppError } from '../shared/errors';
import type { ExportedPurchase, PersonalDataExport } from './schemas';

type Conn = Knex.Transaction;

/** The purchase's type as the person reads it (docs/domain.md §6.1: kinds; §7: teams and seats). */
const purchaseType = (row: {
  kind: string;
  bulkCouponId: string | null;
  redeemedBulkCouponId: string | null;
}): ExportedPurchase['type'] =>
  row.kind === 'comp' ? 'comp' : row.bulkCouponId ? 'team' : row.redeemedBulkCouponId ? 'seat' : 'individual';

async function profileOf(trx: Conn, userId: string) {
  const user = await trx('users').where({ id: userId }).first();
  if (!user) throw new AppError('not-found', `No users record with id ${userId}.`);
  if (user.deletedAt) throw new AppError('account-deleted', 'This account was deleted; nothing is held about it.');
  return {
    user,
    profile: {
      id: user.id,
      email: user.email,
      name: user.name,
      bio: user.bio,
      timeZone: await timeZoneOf(trx, userId),
      avatarUrl: avatarFields(user.avatarKey)?.src ?? null,
      signInPictureUrl: user.image,
      roles: user.roles,
      emailVerifiedAt: user.emailVerified,
      createdAt: user.createdAt,
      blocked: user.blockedAt ? { at: user.blockedAt, reason: user.blockedReason } : null,
    },
  };
}

async function purchasesOf(trx: Conn, userId: string): Promise<ExportedPurchase[]> {
  const rows = await trx('purchases as p')
    .join('products as pr', 'pr.id', 'p.productId')
    .leftJoin('merchantCharges as c', 'c.id', 'p.merchantChargeId')
    .where('p.userId', userId)
    .orderBy('p.createdAt')
    .select(
      'p.id',
      'pr.name as product',
      'p.kind',
      'p.bulkCouponId',
      'p.redeemedBulkCouponId',
      'p.status',
      'p.totalAmount',
      'p.currency',
      'p.country',
      'p.state',
      'p.city',
      'p.ipAddress',
      'p.createdAt',
      'c.refundAmount',
      // Bought by the person: never moved to them (a transfer, and support's move, end COMPLETED).
      trx.raw(
        `not exists (select 1 from purchase_user_transfers t where t.purchase_id = p.id and t.transfer_state = 'COMPLETED') as bought`,
      ),
    );
  return rows.map((row) => ({
    id: row.id,
    product: row.product,
    type: purchaseType(row),
    status: row.status,
    amount: row.totalAmount,
    refunded: row.refundAmount ?? 0,
    currency: row.currency,
    // Where and from which network it was bought are the buyer's: a purchase given to the person has none of them.
    country: row.bought ? row.country : null,
    region: row.bought ? row.state : null,
    city: row.bought ? row.city : null,
    ipAddress: row.bought ? row.ipAddress : null,
    createdAt: row.createdAt,
  }));
}

/** Teams the person bought: seats and how many are taken, never who took them (that is the members' data). */
async function teamsOf(trx: Conn, userId: string) {
  const rows = await trx('purchases as p')
    .join('products as pr', 'pr.id', 'p.productId')
    .join('coupons as c', 'c.id', 'p.bulkCouponId')
    .where('p.userId', userId)
    .orderBy('p.createdAt')
    .select('p.id', 'pr.name as product', 'c.maxUses', 'c.usedCount', 'p.createdAt');
  return rows.map((row) => ({
    purchaseId: row.id,
    product: row.product,
    seats: row.maxUses,
    seatsTaken: row.usedCount,
    createdAt: row.createdAt,
  }));
}

async function seatsOf(trx: Conn, userId: string) {
  return trx('purchases as p')
    .join('products as pr', 'pr.id', 'p.productId')
    .where('p.userId', userId)
    .whereNotNull('p.redeemedBulkCouponId')
    .orderBy('p.createdAt')
    .select('p.id as purchaseId', 'pr.name as product', 'p.status', 'p.createdAt');
}

/** Transfers the person offered or received; the other side's address is theirs, so it stays out. */
async function transfersOf(trx: Conn, userId: string) {
  const rows = await trx('purchaseUserTransfers as t')
    .join('purchases as p', 'p.id', 't.purchaseId')
    .join('products as pr', 'pr.id', 'p.productId')
    .where((q) => q.where('t.sourceUserId', userId).orWhere('t.targetUserId', userId))
    .orderBy('t.createdAt')
    .select('t.sourceUserId', 'pr.name as product', 't.transferState', 't.createdAt', 't.expiresAt', 't.completedAt');
  return rows.map((row) => ({
    direction: row.sourceUserId === userId ? ('out' as const) : ('in' as const),
    product: row.product,
    state: row.transferState,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    completedAt: row.completedAt,
  }));
}

async function learningOf(trx: Conn, userId: string) {
  const progress = await trx('lessonProgress as lp')
    .leftJoin('contentResources as r', 'r.id', 'lp.lessonId')
    .where('lp.userId', userId)
    .orderBy('lp.updatedAt')
    .select('lp.lessonId', trx.raw(`r.fields->>'title' as lesson`), 'lp.completedAt', 'lp.updatedAt');
  const videoPositions = await trx('videoPositions')
    .where({ userId })
    .orderBy('updatedAt')
    .select('lessonId', 'positionMs', 'updatedAt');
  const comments = (
    await trx('comments')
      .where({ userId })
      .orderBy('createdAt')
      .select('id', 'context', 'parentId', 'text', 'createdAt', 'editedAt', 'hiddenReason')
  ).map((row) => ({
    id: row.id,
    lessonId: ((row.context as Record<string, unknown>)?.resourceId as string | undefined) ?? null,
    replyTo: row.parentId,
    text: row.text,
    createdAt: row.createdAt,
    editedAt: row.editedAt,
    hiddenReason: row.hiddenReason,
  }));
  const bookmarks = await trx('bookmarks')
    .where({ userId })
    .orderBy('createdAt')
    .select('resourceId', 'type', 'createdAt');
  const certificates = await trx('certificates')
    .where({ userId })
    .orderBy('issuedAt')
    .select('id', 'courseTitle as course', 'learnerName as name', 'issuedAt', 'revokedAt');
  return { progress, videoPositions, comments, bookmarks, certificates };
}

/** A subject may name someone else (a transfer's giver): their address is theirs, not the person's. */
const withoutOthersAddresses = (text: string, own: string) =>
  text.replace(/[^\s@<>()"]+@[^\s@<>()"]+/g, (found) =>
    found.toLowerCase() === own.toLowerCase() ? found : '[someone]',
  );

/** Emails to the person's address (the outbox names them by it): what was sent and when, never the bodies' links. */
async function contactOf(trx: Conn, email: string) {
  const emails = (
    await trx('outboxEmails')
      .whereRaw('lower(to_address) = lower(?)', [email])
      .orderBy('createdAt')
      .select('subject', 'kind', 'status', 'createdAt', 'sentAt')
  ).map((row) => ({ ...row, subject: withoutOthersAddresses(row.subject, email) }));
  const waitlists = await trx('waitlistEntries as w')
    .join('products as pr', 'pr.id', 'w.productId')
    .whereRaw('lower(w.email) = lower(?)', [email])
    .orderBy('w.createdAt')
    .select('pr.name as product', 'w.createdAt as joinedAt', 'w.notifiedAt');
  return { emails, waitlists };
}

/**
 * The billing details remembered for a next checkout, and the invoices and credit notes issued to the person as payer
 * (theirs whoever holds the purchase now), as issued: the buyer they name is the person.
 */
async function billingOf(trx: Conn, userId: string) {
  const billing =
    (await trx('billingProfiles')
      .where({ userId })
      .first('company', 'address', 'country', 'region', 'postalCode', 'vatId', 'updatedAt')) ?? null;
  const invoices = await trx('invoices')
    .where({ payerUserId: userId })
    .orderBy([{ column: 'issuedAt' }, { column: 'number' }])
    .select('kind', 'number', 'issuedAt', 'total', 'taxAmount', 'currency', 'buyer');
  return { billing, invoices };
}

async function signInsOf(trx: Conn, userId: string) {
  const sessions = await trx('sessions')
    .where({ userId })
    .orderBy('createdAt')
    .select('createdAt', 'lastSeenAt', 'expires as expiresAt', 'userAgent');
  const signIns = await trx('signIns')
    .where({ userId })
    .orderBy('createdAt')
    .select('method', 'userAgent', 'createdAt as at');
  const devices = await trx('deviceAccessTokens as t')
    .leftJoin('deviceClients as c', 'c.clientId', 't.clientId')
    .where('t.userId', userId)
    .orderBy('t.createdAt')
    .select(trx.raw('coalesce(c.name, t.client_id) as client'), 't.createdAt', 't.lastUsedAt');
  const linkedAccounts = await trx('accounts').where({ userId }).select('provider', 'providerAccountId as accountId');
  return { sessions, signIns, devices, linkedAccounts };
}

/** Staff notes and the audit log, about the person or by them; which staff member acted stays out. */
async function recordsOf(trx: Conn, userId: string) {
  const preferences = await trx('userPrefs')
    .where({ userId })
    .orderBy('createdAt')
    .select('type', 'resourceId', 'fields', 'updatedAt');
  const staffNotes = await trx('staffNotes').where({ userId }).orderBy('createdAt').select('body as text', 'createdAt');
  const audit = await trx('auditLogs')
    .where((q) => q.where({ resource: 'users', recordId: userId }).orWhere('actorId', userId))
    .orderBy('id')
    .select('action', 'actorId', 'createdAt');
  const auditEntries = audit.map((row) => ({
    action: row.action,
    by: row.actorId === userId ? ('you' as const) : row.actorId ? ('staff' as const) : ('system' as const),
    at: row.createdAt,
  }));
  return { preferences, staffNotes, auditEntries };
}

/**
 * Everything held about one person (GDPR art. 15 and 20), read in one read-only repeatable-read transaction so the
 * parts agree with each other. Every query is keyed by the person's id or address: nobody else's rows come with it.
 */
export async function exportPersonalData(
  { db, clock, school }: { db: Db; clock: { now(): Date }; school: { get(): Promise<{ name: string }> } },
  userId: string,
): Promise<PersonalDataExport> {
  const schoolName = (await school.get()).name;
  return db.transaction(
    async (trx) => {
      const { user, profile } = await profileOf(trx, userId);
      return {
        exportedAt: clock.now(),
        school: schoolName,
        profile,
        ...(await recordsOf(trx, userId)),
        purchases: await purchasesOf(trx, userId),
        teamsBought: await teamsOf(trx, userId),
        teamSeats: await seatsOf(trx, userId),
        transfers: await transfersOf(trx, userId),
        ...(await learningOf(trx, userId)),
        ...(await contactOf(trx, user.email)),
        ...(await billingOf(trx, userId)),
        ...(await signInsOf(trx, userId)),
      };
    },
    { isolationLevel: 'repeatable read', readOnly: true },
  );
}

/** The download's name: the school's name as a slug, then the day, `courses-data-2026-11-28.json`. */
export function exportFilename(data: Pick<PersonalDataExport, 'school' | 'exportedAt'>): string {
  const slug =
    data.school
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'school';
  return `${slug}-data-${data.exportedAt.toISOString().slice(0, 10)}.json`;
}
