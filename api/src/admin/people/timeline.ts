import type { Db } from '../../db/connection';
import { formatMoney } from '../../shared/money';
import { AppError } from '../../shared/errors';
import { refundReasonLabel } from '../../shared/refund-reasons';
import { auditActionInWords } from '../../shared/audit-actions';
import type { TimelineEvent, TimelineKind, TimelinePage, TimelineQuery } from '../schemas/timeline';

/**
 * A person's (or a purchase's) history in one list, newest first: purchases and seats, purchases given and received,
 * payments, refunds, disputes, sign-ins and devices approved, emails with their delivery state, staff notes, and every
 * staff action the audit log holds about them (transfers, seats revoked, bans, comments hidden, role changes…). One
 * SQL statement: each source is a branch of a UNION ALL over the same columns, each read newest first through an
 * index and cut at the page's last row, then merged and paged; the total is counted apart, source by source.
 */

/** The ids a timeline is about, as CTEs every branch reads. `?` is the person's or the purchase's id. */
const PERSON = `
  person AS (SELECT id, email FROM users WHERE id = ?),
  their_charges AS (SELECT id FROM merchant_charges WHERE user_id = (SELECT id FROM person)),
  their_purchases AS (SELECT id FROM purchases WHERE user_id = (SELECT id FROM person)
                      UNION SELECT id FROM purchases WHERE merchant_charge_id IN (SELECT id FROM their_charges)),
  their_transfers AS (SELECT id FROM purchase_user_transfers
                       WHERE source_user_id = (SELECT id FROM person) OR target_user_id = (SELECT id FROM person)),
  their_comments AS (SELECT id FROM comments WHERE user_id = (SELECT id FROM person)),
  their_notes AS (SELECT id FROM staff_notes WHERE user_id = (SELECT id FROM person)),
  their_subscriptions AS (SELECT id FROM subscriptions WHERE user_id = (SELECT id FROM person))`;

/** A purchase's own story; a team purchase's includes the seats taken from it. */
const PURCHASE = `
  the_purchase AS (SELECT * FROM purchases WHERE id = ?),
  person AS (SELECT NULL::uuid AS id, NULL::text AS email WHERE false),
  their_purchases AS (SELECT id FROM the_purchase
                      UNION ALL SELECT id FROM purchases
                       WHERE redeemed_bulk_coupon_id = (SELECT bulk_coupon_id FROM the_purchase)),
  their_charges AS (SELECT merchant_charge_id AS id FROM the_purchase WHERE merchant_charge_id IS NOT NULL),
  their_transfers AS (SELECT id FROM purchase_user_transfers WHERE purchase_id = (SELECT id FROM the_purchase)),
  their_comments AS (SELECT NULL::uuid AS id WHERE false),
  their_notes AS (SELECT id FROM staff_notes WHERE purchase_id = (SELECT id FROM the_purchase)),
  their_subscriptions AS (SELECT NULL::uuid AS id WHERE false)`;

/**
 * Every branch answers: at, kind, record id, the console resource it opens, who did it (staff), data. A purchase is
 * told as bought on its buyer's timeline only: the payer (its charge's), or for one without a charge whoever held it
 * first; someone it was given to reads "Was given … by …" from its transfer instead.
 */
const PURCHASES = `
  SELECT p.created_at AS at, CASE WHEN p.redeemed_bulk_coupon_id IS NULL THEN 'purchase' ELSE 'seat' END AS kind,
         p.id::text AS record_id, 'purchases' AS resource, NULL::text AS by_email,
         jsonb_build_object('product', pr.name, 'amount', p.total_amount, 'currency', p.currency, 'status', p.status,
                            'team', p.bulk_coupon_id IS NOT NULL, 'buyer', u.email, 'comp', p.kind = 'comp',
                            'compReason', p.comp_reason) AS data
    FROM purchases p JOIN products pr ON pr.id = p.product_id JOIN users u ON u.id = p.user_id
    LEFT JOIN merchant_charges paid ON paid.id = p.merchant_charge_id
   WHERE p.id IN (SELECT id FROM their_purchases)
     AND ((SELECT id FROM person) IS NULL
          OR COALESCE(paid.user_id,
                      (SELECT t.source_user_id FROM purchase_user_transfers t
                        WHERE t.purchase_id = p.id AND t.transfer_state = 'COMPLETED'
                        ORDER BY t.completed_at, t.id LIMIT 1),
                      p.user_id) = (SELECT id FROM person))`;

const TRANSFERS = `
  SELECT t.completed_at, 'transfer', t.id::text, 'purchase-user-transfers', NULL,
         jsonb_build_object('product', pr.name, 'fromEmail', source.email, 'toEmail', target.email,
                            'bySupport', t.by_support,
                            'side', CASE WHEN t.target_user_id = (SELECT id FROM person) THEN 'received'
                                         WHEN t.source_user_id = (SELECT id FROM person) THEN 'gave' END)
    FROM purchase_user_transfers t JOIN purchases p ON p.id = t.purchase_id JOIN products pr ON pr.id = p.product_id
    JOIN users source ON source.id = t.source_user_id LEFT JOIN users target ON target.id = t.target_user_id
   WHERE t.id IN (SELECT id FROM their_transfers) AND t.transfer_state = 'COMPLETED'`;

const PAYMENTS = `
  SELECT ch.created_at, 'payment', ch.id::text, 'merchant-charges', NULL,
         jsonb_build_object('amount', ch.amount, 'currency', ch.currency, 'fee', ch.fee, 'identifier', ch.identifier)
    FROM merchant_charges ch WHERE ch.id IN (SELECT id FROM their_charges)`;

const REFUNDS = `
  SELECT r.created_at, 'refund', r.id::text, 'merchant-refunds', by_user.email,
         jsonb_build_object('amount', r.amount, 'currency', ch.currency, 'status', r.status, 'reason', r.reason,
                            'reasonCode', r.reason_code)
    FROM merchant_refunds r JOIN merchant_charges ch ON ch.id = r.merchant_charge_id
    LEFT JOIN users by_user ON by_user.id = r.requested_by_id
   WHERE r.merchant_charge_id IN (SELECT id FROM their_charges)`;

const DISPUTES = `
  SELECT d.created_at, 'dispute', d.id::text, 'merchant-disputes', NULL,
         jsonb_build_object('amount', d.amount, 'currency', ch.currency, 'status', d.status, 'reason', d.reason)
    FROM merchant_disputes d JOIN merchant_charges ch ON ch.id = d.merchant_charge_id
   WHERE d.merchant_charge_id IN (SELECT id FROM their_charges)`;

const SIGN_INS = `
  SELECT s.created_at, 'sign-in', s.id::text, NULL, NULL, jsonb_build_object('method', s.method, 'userAgent', s.user_agent)
    FROM sign_ins s WHERE s.user_id = (SELECT id FROM person)`;

const EMAILS = `
  SELECT o.created_at, 'email', o.id::text, 'outbox-emails', NULL,
         jsonb_build_object('subject', o.subject, 'emailKind', o.kind, 'status', o.status, 'attempts', o.attempts,
                            'sentAt', o.sent_at, 'lastError', o.last_error)
    FROM outbox_emails o WHERE o.to_address = (SELECT email FROM person)`;

const NOTES = `
  SELECT n.created_at, 'note', n.id::text, NULL, n.author_email,
         jsonb_build_object('body', n.body, 'purchaseId', n.purchase_id)
    FROM staff_notes n WHERE n.id IN (SELECT id FROM their_notes)`;

/**
 * The audit log's entries about one kind of record: one branch per kind, each an equality on (resource, record_id)
 * that its index answers newest first (an OR of the four would read the whole log).
 */
const staffActions = (resource: string, recordIs: string) => `
  SELECT a.created_at, 'staff-action', a.id::text, 'audit-logs', a.actor_email,
         jsonb_build_object('action', a.action, 'resource', a.resource, 'recordId', a.record_id,
                            'byThemselves', a.actor_id IS NOT NULL AND a.actor_id = (SELECT id FROM person),
                            'reason', a.after->>'reason', 'fromEmail', a.before->>'email', 'toEmail', a.after->>'email',
                            'rolesBefore', a.before->'roles', 'rolesAfter', a.after->'roles')
    FROM audit_logs a
   WHERE a.resource = '${resource}' AND a.record_id ${recordIs}`;

const SOURCES = [
  PURCHASES,
  TRANSFERS,
  PAYMENTS,
  REFUNDS,
  DISPUTES,
  SIGN_INS,
  EMAILS,
  NOTES,
  // One record: an equality, so the index gives its entries newest first and a page stops after its rows.
  staffActions('users', '= (SELECT id::text FROM person)'),
  staffActions('purchases', 'IN (SELECT id::text FROM their_purchases)'),
  staffActions('purchase-user-transfers', 'IN (SELECT id::text FROM their_transfers)'),
  staffActions('comments', 'IN (SELECT id::text FROM their_comments)'),
  // A membership ended or a period refunded by staff, with the reason.
  staffActions('subscriptions', 'IN (SELECT id::text FROM their_subscriptions)'),
];

/** The timeline's order: newest first, then a fixed order among events of the same instant. */
const NEWEST_FIRST = 'ORDER BY 1 DESC, 2, 3 DESC';

/**
 * Each source read newest first and cut at the last row the page needs (`bound`), so a page reads at most
 * offset + perPage events of each source through its index, never every event the person has.
 */
const BOUNDED_BRANCHES = SOURCES.map((s) => `(${s} ${NEWEST_FIRST} LIMIT (SELECT n FROM bound))`).join(
  '\n  UNION ALL\n',
);
/** Every event, for the total: the same sources, counted (each through its index). */
const ALL_BRANCHES = SOURCES.join('\n  UNION ALL\n');

type Row = {
  at: Date;
  kind: TimelineKind;
  record_id: string;
  resource: string | null;
  by_email: string | null;
  data: Record<string, unknown>;
};

const money = (data: Record<string, unknown>) => formatMoney(Number(data.amount), String(data.currency));

/** 'team.seat-revoked' → "Team seat revoked"; a plain 'update' of users → "Updated (users)". */
function actionInWords(action: string, resource: string): string {
  const words = auditActionInWords(action);
  return action.includes('.') ? words : `${words} (${resource})`;
}

/**
 * A change of roles in words, from the entry's roles before and after (the console's edit of a person and the
 * command line's grant and revoke both record them): "Role granted: finance · Role revoked: support". Null when the
 * entry changed no role.
 */
function rolesChangedInWords(d: Record<string, unknown>): string | null {
  if (!Array.isArray(d.rolesBefore) || !Array.isArray(d.rolesAfter)) return null;
  const before = d.rolesBefore as string[];
  const after = d.rolesAfter as string[];
  const said = (roles: string[], what: string) =>
    roles.length ? `${roles.length === 1 ? 'Role' : 'Roles'} ${what}: ${roles.join(', ')}` : null;
  const words = [
    said(
      after.filter((r) => !before.includes(r)),
      'granted',
    ),
    said(
      before.filter((r) => !after.includes(r)),
      'revoked',
    ),
  ].filter(Boolean);
  return words.length ? words.join(' · ') : null;
}

/** A refund's reason as staff read it: its label, then the note ("Duplicate purchase: bought twice"). */
function refundReasonOf(d: Record<string, unknown>): string {
  const note = (d.reason as string | null) || null;
  if (!d.reasonCode) return note ?? refundReasonLabel(null);
  return note ? `${refundReasonLabel(d.reasonCode as string)}: ${note}` : refundReasonLabel(d.reasonCode as string);
}

/** What happened, in one sentence, and a second line of detail where there is one. */
function describe(kind: TimelineKind, d: Record<string, unknown>): { summary: string; detail: string | null } {
  switch (kind) {
    case 'purchase':
      // A comp: given by staff, nothing paid and no revenue (its "Course given" line says by whom).
      if (d.comp)
        return {
          summary: `Was given ${d.product} (comp: nothing paid, no revenue)`,
          detail: `Status: ${d.status} · Reason: ${d.compReason}`,
        };
      return {
        summary: d.team
          ? `Bought seats of ${d.product} for a team (${money(d)})`
          : Number(d.amount) > 0
            ? `Bought ${d.product} for ${money(d)}`
            : `Got ${d.product} free`,
        detail: `Status: ${d.status}`,
      };
    case 'seat':
      return { summary: `${d.buyer} took a team seat of ${d.product}`, detail: `Status: ${d.status}` };
    case 'transfer': {
      // Who holds a purchase changed, never who paid: the payer keeps the charge and the invoice.
      const how = d.bySupport ? 'Moved by support' : 'Offered and accepted';
      if (d.side === 'gave')
        return { summary: `Gave ${d.product} to ${d.toEmail}`, detail: `${how} · Still the payer` };
      if (d.side === 'received')
        return { summary: `Was given ${d.product} by ${d.fromEmail}`, detail: `${how} · Paid nothing, no invoice` };
      return { summary: `${d.fromEmail} gave ${d.product} to ${d.toEmail}`, detail: how };
    }
    case 'payment':
      return { summary: `Paid ${money(d)}`, detail: `Provider charge ${d.identifier}` };
    case 'refund':
      return { summary: `Refund of ${money(d)} (${d.status})`, detail: `Reason: ${refundReasonOf(d)}` };
    case 'dispute':
      return { summary: `Dispute of ${money(d)} (${d.status})`, detail: d.reason ? `Reason: ${d.reason}` : null };
    case 'sign-in':
      return {
        summary:
          d.method === 'device'
            ? 'Approved a device'
            : `Signed in with ${d.method === 'github' ? 'GitHub' : 'an email link'}`,
        detail: (d.userAgent as string | null) ?? null,
      };
    case 'email': {
      const state =
        d.status === 'sent'
          ? 'sent'
          : d.status === 'failed'
            ? `failed after ${d.attempts} attempts`
            : Number(d.attempts) > 0
              ? `waiting to be retried (${d.attempts} attempts)`
              : 'waiting to be sent';
      return { summary: `Email “${d.subject}”: ${state}`, detail: (d.lastError as string | null) ?? null };
    }
    case 'note':
      return { summary: 'Internal note', detail: String(d.body) };
    case 'staff-action': {
      // What staff said or changed: a block's or a view's reason, an email change's two addresses (an edit that
      // kept the address records it on both sides: not a change).
      const emailChanged = d.fromEmail && d.toEmail && d.fromEmail !== d.toEmail;
      const said = d.reason ? `Reason: ${d.reason}` : emailChanged ? `${d.fromEmail} → ${d.toEmail}` : null;
      return {
        summary: rolesChangedInWords(d) ?? actionInWords(String(d.action), String(d.resource)),
        detail: [d.byThemselves ? 'By the person themselves' : null, said].filter(Boolean).join(' · ') || null,
      };
    }
  }
}

export function timelineService({ db }: { db: Db }) {
  async function page(with_: string, id: string, q: TimelineQuery): Promise<TimelinePage> {
    const offset = (q.page - 1) * q.perPage;
    const [{ rows }, total] = await Promise.all([
      db.raw(
        `WITH bound AS (SELECT ?::int AS n), ${with_}
         SELECT e.* FROM (${BOUNDED_BRANCHES}) e
          ORDER BY e.at DESC, e.kind, e.record_id DESC
          LIMIT ? OFFSET ?`,
        [offset + q.perPage, id, q.perPage, offset],
      ) as Promise<{ rows: Row[] }>,
      count(with_, id),
    ]);
    return {
      data: rows.map((r): TimelineEvent => {
        const { summary, detail } = describe(r.kind, r.data);
        return {
          id: `${r.kind}:${r.record_id}`,
          at: r.at,
          kind: r.kind,
          summary,
          detail,
          by: r.by_email,
          link: r.resource ? { resource: r.resource, id: r.record_id } : null,
          data: r.data,
        };
      }),
      total,
      page: q.page,
      perPage: q.perPage,
    };
  }

  /** Every event the timeline holds, exactly: each source counted through its index, none of it described. */
  async function count(with_: string, id: string): Promise<number> {
    const { rows } = await db.raw(`WITH ${with_} SELECT count(*)::int AS n FROM (${ALL_BRANCHES}) e`, [id]);
    return rows[0].n as number;
  }

  return {
    async ofUser(userId: string, q: TimelineQuery): Promise<TimelinePage> {
      if (!(await db('users').where({ id: userId }).first('id'))) throw new AppError('not-found', 'No such user.');
      return page(PERSON, userId, q);
    },

    async ofPurchase(purchaseId: string, q: TimelineQuery): Promise<TimelinePage> {
      if (!(await db('purchases').where({ id: purchaseId }).first('id')))
        throw new AppError('not-found', 'No such purchase.');
      return page(PURCHASE, purchaseId, q);
    },
  };
}

export type TimelineService = ReturnType<typeof timelineService>;
