import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import { networkOf, type Limit, type RateLimiter } from '../../identity/rate-limit';
import { hashSecret, sameSecret } from '../../identity/secrets';
import { AppError } from '../../shared/errors';
import { saleStateOf } from './sale-state';
import type { JoinedWaitlist, LeftWaitlist } from './schemas';

/**
 * Joins, like other public writes that may email someone later: per client network and per address, fixed windows
 * shared by every process (COMMERCE_LIMIT_SCALE multiplies `max`). Far above a person joining a few waitlists, far
 * below filling one with strangers' addresses.
 */
export const WAITLIST_LIMITS = {
  joinPerIp: { max: 20, windowSeconds: 10 * 60 },
  joinPerEmail: { max: 5, windowSeconds: 60 * 60 },
} as const satisfies Record<string, Omit<Limit, 'bucket'>>;

/** What joining a waitlist needs: the database, the time, the limits' scale and the shared limiter. */
interface JoinDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'COMMERCE_LIMIT_SCALE'>;
  limiter: RateLimiter;
}

const limit = (config: JoinDeps['config'], kind: keyof typeof WAITLIST_LIMITS, key: string): Limit => ({
  bucket: `${kind}:${key}`,
  max: WAITLIST_LIMITS[kind].max * config.COMMERCE_LIMIT_SCALE,
  windowSeconds: WAITLIST_LIMITS[kind].windowSeconds,
});

/**
 * Puts an address on a product's waitlist (idempotent: a second join says so). Refused for a product on sale
 * (buy it instead) and for one not in the storefront. The answer is the same whether the address has an account.
 */
export async function joinWaitlist(
  { db, clock, config, limiter }: JoinDeps,
  { productId, email, ip }: { productId: string; email: string; ip: string | null },
): Promise<JoinedWaitlist> {
  if (ip) await limiter.hit(limit(config, 'joinPerIp', networkOf(ip)), 'waitlist sign-ups from your network');
  await limiter.hit(limit(config, 'joinPerEmail', email), 'waitlist sign-ups for this email address');
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
}

/** The leave link of a waitlist email: the entry goes (idempotent: gone already is `not-on-list`). */
export async function leaveWaitlist(
  { db }: { db: Db },
  { entry, token }: { entry: string; token: string },
): Promise<LeftWaitlist> {
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
}
