import type { Knex } from 'knex';
import type { Clock } from '../../clock';
import { seatsSold } from '../seats-sold';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import { networkOf, type Limit, type RateLimiter } from '../../identity/rate-limit';
import { hashSecret, newSecret, sameSecret } from '../../identity/secrets';
import type { JobQueue } from '../../jobs/queue';
import type { Logger } from '../../logger';
import type { Outbox } from '../../mail/outbox';
import { waitlistOpenEmail } from '../../mail/waitlist-emails';
import { GRANTING_STATUSES } from '../../shared/purchase-status';
import { enrollmentState } from '../service';
import type { WaitlistProduct } from './models';
import type { JoinedWaitlist, LeftWaitlist } from './schemas';

type Conn = Knex | Knex.Transaction;

/** The sweep that notices products opening (every minute, once across replicas) and the job of one opening. */
export const WAITLIST_SWEEP = 'waitlist-sweep';
export const WAITLIST_OPENING = 'waitlist-opening';

/** People emailed per transaction of an opening's job: one batch's emails and marks commit together. */
const BATCH = 50;

/**
 * Joins, like other public writes that may email someone later: per client network and per address, fixed windows
 * shared by every process (COMMERCE_LIMIT_SCALE multiplies `max`). Far above a person joining a few waitlists, far
 * below filling one with strangers' addresses.
 */
export const WAITLIST_LIMITS = {
  joinPerIp: { max: 20, windowSeconds: 10 * 60 },
  joinPerEmail: { max: 5, windowSeconds: 60 * 60 },
} as const satisfies Record<string, Omit<Limit, 'bucket'>>;

/** Where a product stands for buyers: on sale, or why not (`unavailable`: archived or gone, no page to show). */
export type SaleState = 'on-sale' | 'sold-out' | 'not-open' | 'closed' | 'not-on-sale' | 'unavailable';

interface ProductFacts {
  id: string;
  name: string;
  slug: string | null;
  status: string;
  quantityAvailable: number;
  enrollmentOpensAt: Date | null;
  enrollmentClosesAt: Date | null;
}

/**
 * Whether the product can be bought at `now`, by the same rules as the storefront's list and the checkout: active,
 * a current price, enrollment open, a seat left (seats counted as the checkout counts them). The order of the reasons
 * is the storefront's (saleBlocker): the enrollment window first, then the price, then the seats.
 */
export async function saleStateOf(
  conn: Conn,
  productId: string,
  now: Date,
): Promise<{ state: SaleState; product: ProductFacts | null; seatsLeft: number | null }> {
  const product: ProductFacts | undefined = await conn('products')
    .where({ id: productId })
    .first('id', 'name', 'slug', 'status', 'quantityAvailable', 'enrollmentOpensAt', 'enrollmentClosesAt');
  if (!product || product.status !== 'active')
    return { state: 'unavailable', product: product ?? null, seatsLeft: null };
  const seatsLeft =
    product.quantityAvailable >= 0 ? Math.max(0, product.quantityAvailable - (await seatsSold(conn, productId))) : null;
  const enrollment = enrollmentState(product, now);
  if (enrollment !== 'open') return { state: enrollment, product, seatsLeft };
  const price = await conn('prices').where({ productId, status: 'active' }).first('id');
  if (!price) return { state: 'not-on-sale', product, seatsLeft };
  return { state: seatsLeft === 0 ? 'sold-out' : 'on-sale', product, seatsLeft };
}

export interface SweepResult {
  /** Products found open that were closed at the last look. */
  opened: number;
  /** Products found closed that were open at the last look. */
  closed: number;
  /** Opening jobs queued (one per product that is open with people waiting for this opening). */
  queued: number;
}

/**
 * Waitlists (issue 17): people join a product that cannot be bought; when it opens (seats again, enrollment open, on
 * sale), each is emailed once per opening, with a link to the product and one to leave the list.
 *
 * A sweep every minute compares each waited-for product with how it last found it: closed → open counts an opening
 * and queues that opening's job in the same transaction. The job emails the people not yet emailed for the current
 * opening in batches, each batch's emails queued in the outbox in the transaction that marks them (`notified_opening`,
 * `notified_at`), entries locked (SKIP LOCKED), so however many jobs or replicas run, each person gets one email per
 * opening. A product found closed again stops the job; nobody is emailed about a product that cannot be bought.
 */
export function waitlistService({
  db,
  clock,
  config,
  logger,
  outbox,
  jobs,
  limiter,
}: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'COMMERCE_LIMIT_SCALE'>;
  logger: Logger;
  outbox: Pick<Outbox, 'enqueue' | 'flushInBackground'>;
  jobs: Pick<JobQueue, 'add'>;
  limiter: RateLimiter;
}) {
  const limit = (kind: keyof typeof WAITLIST_LIMITS, key: string): Limit => ({
    bucket: `${kind}:${key}`,
    max: WAITLIST_LIMITS[kind].max * config.COMMERCE_LIMIT_SCALE,
    windowSeconds: WAITLIST_LIMITS[kind].windowSeconds,
  });
  const productUrl = (product: { id: string; slug: string | null }) =>
    new URL(`/products/${encodeURIComponent(product.slug ?? product.id)}`, config.publicUrl).toString();
  const leaveUrl = (entryId: string, token: string) => {
    const url = new URL('/waitlist/leave', config.publicUrl);
    url.searchParams.set('entry', entryId);
    url.searchParams.set('token', token);
    return url.toString();
  };

  /** A job for this product's current opening is queued or running: the sweep need not add another. */
  const jobPending = async (trx: Knex.Transaction, productId: string) =>
    Boolean(
      await trx
        .withSchema('pgboss')
        .from('job')
        .where({ name: WAITLIST_OPENING })
        .whereIn('state', ['created', 'retry', 'active'])
        .whereRaw(`data->>'productId' = ?`, [productId])
        .first('id'),
    );

  const someoneWaiting = async (conn: Conn, productId: string, opening: number) =>
    Boolean(await conn('waitlistEntries').where({ productId }).where('notifiedOpening', '<', opening).first('id'));

  /** One product's look: its state row locked (a racing sweep skips it), an opening counted and its job queued. */
  async function look(productId: string, now: Date): Promise<{ opened: boolean; closed: boolean; queued: boolean }> {
    return db.transaction(async (trx) => {
      const row: WaitlistProduct | undefined = await trx('waitlistProducts')
        .where({ productId })
        .forUpdate()
        .skipLocked()
        .first();
      const outcome = { opened: false, closed: false, queued: false };
      if (!row) return outcome; // another sweep (or an opening's job) has it now
      const { state } = await saleStateOf(trx, productId, now);
      const open = state === 'on-sale';
      let opening = row.opening;
      if (open && !row.open) {
        opening += 1;
        outcome.opened = true;
        await trx('waitlistProducts').where({ productId }).update({ open: true, opening, changedAt: now });
      } else if (!open && (row.open || row.closedReason !== state)) {
        outcome.closed = row.open;
        await trx('waitlistProducts').where({ productId }).update({ open: false, closedReason: state, changedAt: now });
      }
      if (open && (await someoneWaiting(trx, productId, opening)) && !(await jobPending(trx, productId))) {
        await jobs.add(trx, WAITLIST_OPENING, { productId, opening });
        outcome.queued = true;
      }
      return outcome;
    });
  }

  /**
   * One batch of an opening's emails, in one transaction: nothing if the product is not open (any more); else up to
   * BATCH people not yet emailed for the current opening, each emailed and marked. People who hold the product by
   * now leave the list instead. Answers how many were emailed and whether more may be waiting.
   */
  async function notifyBatch(productId: string): Promise<{ emailed: number; more: boolean }> {
    return db.transaction(async (trx) => {
      // Shared: batches of racing jobs go side by side; a sweep changing the state waits, or skips this product.
      const row: WaitlistProduct | undefined = await trx('waitlistProducts').where({ productId }).forShare().first();
      if (!row?.open) return { emailed: 0, more: false };
      const now = clock.now();
      const { state, product, seatsLeft } = await saleStateOf(trx, productId, now);
      if (state !== 'on-sale' || !product) return { emailed: 0, more: false };
      const entries: { id: string; email: string; createdAt: Date; holds: boolean }[] = await trx(
        'waitlistEntries as w',
      )
        .where('w.productId', productId)
        .where('w.notifiedOpening', '<', row.opening)
        .orderBy([{ column: 'w.createdAt' }, { column: 'w.id' }])
        .limit(BATCH)
        .forUpdate()
        .skipLocked()
        .select(
          'w.id',
          'w.email',
          'w.createdAt',
          trx.raw(
            `EXISTS (SELECT 1 FROM purchases p JOIN users u ON u.id = p.user_id
                      WHERE lower(u.email) = w.email AND p.product_id = w.product_id AND p.bulk_coupon_id IS NULL
                        AND p.status IN (${GRANTING_STATUSES.map(() => '?').join(', ')})) AS holds`,
            [...GRANTING_STATUSES],
          ),
        );
      const holders = entries.filter((e) => e.holds).map((e) => e.id);
      if (holders.length) await trx('waitlistEntries').whereIn('id', holders).delete();
      let emailed = 0;
      for (const entry of entries.filter((e) => !e.holds)) {
        const token = newSecret();
        const email = waitlistOpenEmail(entry.email, {
          product: {
            name: product.name,
            pageUrl: productUrl(product),
            seatsLeft,
            closesAt: product.enrollmentClosesAt,
          },
          from: row.closedReason,
          joinedAt: entry.createdAt,
          leaveUrl: leaveUrl(entry.id, token),
        });
        const emailId = await outbox.enqueue(trx, { ...email, secret: token });
        await trx('waitlistEntries')
          .where({ id: entry.id })
          .where('notifiedOpening', '<', row.opening)
          .update({
            notifiedOpening: row.opening,
            notifiedAt: now,
            outboxEmailId: emailId,
            leaveTokenHash: hashSecret(token),
          });
        emailed += 1;
      }
      return { emailed, more: entries.length === BATCH };
    });
  }

  return {
    /**
     * Puts an address on a product's waitlist (idempotent: a second join says so). Refused for a product on sale
     * (buy it instead) and for one not in the storefront. The answer is the same whether the address has an account.
     */
    async join({
      productId,
      email,
      ip,
    }: {
      productId: string;
      email: string;
      ip: string | null;
    }): Promise<JoinedWaitlist> {
      if (ip) await limiter.hit(limit('joinPerIp', networkOf(ip)), 'waitlist sign-ups from your network');
      await limiter.hit(limit('joinPerEmail', email), 'waitlist sign-ups for this email address');
      return db.transaction(async (trx) => {
        const { state } = await saleStateOf(trx, productId, clock.now());
        if (state === 'unavailable') throw new AppError('product-not-found', 'No such product on sale.');
        if (state === 'on-sale')
          throw new AppError('product-on-sale', 'This course can be bought now: no need to wait. Reload the page.');
        await trx('waitlistProducts').insert({ productId, closedReason: state }).onConflict('productId').ignore();
        const [created] = await trx('waitlistEntries')
          .insert({ productId, email })
          .onConflict(['productId', 'email'])
          .ignore()
          .returning('id');
        return { status: created ? 'joined' : 'already-joined', productId, email };
      });
    },

    /** The leave link of a waitlist email: the entry goes (idempotent: gone already is `not-on-list`). */
    async leave({ entry, token }: { entry: string; token: string }): Promise<LeftWaitlist> {
      return db.transaction(async (trx) => {
        const row = await trx('waitlistEntries as w')
          .join('products as p', 'p.id', 'w.productId')
          .where('w.id', entry)
          .forUpdate('w')
          .first('w.id', 'w.leaveTokenHash', 'p.id as productId', 'p.name', 'p.slug');
        if (!row) return { status: 'not-on-list', product: null };
        if (!row.leaveTokenHash || !sameSecret(row.leaveTokenHash, hashSecret(token)))
          throw new AppError(
            'waitlist-link-invalid',
            'This leave link is not valid any more: use the one in the latest waitlist email.',
          );
        await trx('waitlistEntries').where({ id: entry }).delete();
        return { status: 'left', product: { id: row.productId, name: row.name, slug: row.slug } };
      });
    },

    /**
     * Looks at every product people wait for: an opening counted (and its job queued) for each found open that was
     * closed, the closing noted for each found closed. Run every minute; racing sweeps split the products. The
     * queued jobs are taken by the workers' next poll (JOB_POLL_SECONDS), like any job added outside a request.
     */
    async sweep(): Promise<SweepResult> {
      const now = clock.now();
      const rows: { productId: string }[] = await db('waitlistProducts').orderBy('productId').select('productId');
      const products = rows.map((row) => row.productId);
      const result: SweepResult = { opened: 0, closed: 0, queued: 0 };
      for (const productId of products) {
        const outcome = await look(productId, now);
        result.opened += Number(outcome.opened);
        result.closed += Number(outcome.closed);
        result.queued += Number(outcome.queued);
      }
      if (result.opened || result.closed) logger.info({ waitlist: result }, 'waitlist products opened or closed');
      return result;
    },

    /** An opening's job: emails everyone waiting for the product's current opening, batch by batch, while it is open. */
    async notifyOpening(productId: string): Promise<number> {
      let total = 0;
      for (;;) {
        const { emailed, more } = await notifyBatch(productId);
        total += emailed;
        if (emailed) outbox.flushInBackground();
        if (!more) break;
      }
      if (total) logger.info({ productId, emailed: total }, 'waitlist told the product is open');
      return total;
    },
  };
}

export type WaitlistService = ReturnType<typeof waitlistService>;

/** The waitlist's background work: the sweep every minute (UTC, once across replicas) and the openings' jobs. */
export function defineWaitlistJobs(jobs: JobQueue, waitlist: Pick<WaitlistService, 'sweep' | 'notifyOpening'>): void {
  jobs.define({
    name: WAITLIST_SWEEP,
    cron: '* * * * *',
    retryLimit: 1,
    retryDelaySeconds: 10,
    expireInSeconds: 5 * 60,
    run: async () => void (await waitlist.sweep()),
  });
  jobs.define<{ productId: string }>({
    name: WAITLIST_OPENING,
    retryLimit: 5,
    retryDelaySeconds: 30,
    expireInSeconds: 10 * 60,
    run: async ({ productId }) => void (await waitlist.notifyOpening(productId)),
  });
}
