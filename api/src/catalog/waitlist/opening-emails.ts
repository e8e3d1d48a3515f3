import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import { hashSecret, newSecret } from '../../identity/secrets';
import type { Logger } from '../../logger';
import type { Outbox } from '../../mail/outbox';
import { waitlistOpenEmail } from '../../mail/waitlist-emails';
import { GRANTING_STATUSES } from '../../shared/purchase-status';
import type { WaitlistProduct } from './models';
import { saleStateOf } from './sale-state';

/** People emailed per transaction of an opening's job: one batch's emails and marks commit together. */
const BATCH = 50;

/** What an opening's emails need: the database, the time, the public address for links, a log and the outbox. */
interface OpeningEmailDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
  logger: Logger;
  outbox: Pick<Outbox, 'enqueue' | 'flushInBackground'>;
}

const productUrl = (publicUrl: string, product: { id: string; slug: string | null }) =>
  new URL(`/products/${encodeURIComponent(product.slug ?? product.id)}`, publicUrl).toString();

const leaveUrl = (publicUrl: string, entryId: string, token: string) => {
  const url = new URL('/waitlist/leave', publicUrl);
  url.searchParams.set('entry', entryId);
  url.searchParams.set('token', token);
  return url.toString();
};

/**
 * One batch of an opening's emails, in one transaction: nothing if the product is not open (any more); else up to
 * BATCH people not yet emailed for the current opening, each emailed and marked. People who hold the product by
 * now leave the list instead. Answers how many were emailed and whether more may be waiting.
 */
async function notifyBatch(
  { db, clock, config, outbox }: OpeningEmailDeps,
  productId: string,
): Promise<{ emailed: number; more: boolean }> {
  return db.transaction(async (trx) => {
    // Shared: batches of racing jobs go side by side; a sweep changing the state waits, or skips this product.
    const row: WaitlistProduct | undefined = await trx('waitlistProducts').where({ productId }).forShare().first();
    if (!row?.open) return { emailed: 0, more: false };
    const now = clock.now();
    const { state, product, seatsLeft } = await saleStateOf(trx, productId, now);
    if (state !== 'on-sale' || !product) return { emailed: 0, more: false };
    const entries: { id: string; email: string; createdAt: Date; holds: boolean }[] = await trx('waitlistEntries as w')
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
          pageUrl: productUrl(config.publicUrl, product),
          seatsLeft,
          closesAt: product.enrollmentClosesAt,
        },
        from: row.closedReason,
        joinedAt: entry.createdAt,
        leaveUrl: leaveUrl(config.publicUrl, entry.id, token),
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

/** An opening's job: emails everyone waiting for the product's current opening, batch by batch, while it is open. */
export async function notifyOpening(deps: OpeningEmailDeps, productId: string): Promise<number> {
  let total = 0;
  for (;;) {
    const { emailed, more } = await notifyBatch(deps, productId);
    total += emailed;
    if (emailed) deps.outbox.flushInBackground();
    if (!more) break;
  }
  if (total) deps.logger.info({ productId, emailed: total }, 'waitlist told the product is open');
  return total;
}
