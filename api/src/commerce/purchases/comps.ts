import type { Actor } from '../../audit/record';
import { recordAudit } from '../../audit/record';
import type { Clock } from '../../clock';
import type { Db } from '../../db/connection';
import type { Product } from '../../catalog/models';
import { AppError } from '../../shared/errors';
import { RECEIPT_SIGN_IN_DAYS } from '../../identity/sign-in/email-sign-in';
import type { Outbox } from '../../mail/outbox';
import { courseGivenEmail } from '../../mail/templates';
import { leadInPath, receiptSignInLink } from '../checkout/lead-in';
import { holdingOf } from './ownership';
import type { CompGiven } from '../schemas';
import { seatsSold } from '../../catalog/seats-sold';

/** Postgres names the partial unique index that holds one live comp per person and product. */
const ONE_LIVE_COMP = 'purchases_one_live_comp';

const isOneLiveCompViolation = (error: unknown) => {
  const native = ((error as { nativeError?: unknown })?.nativeError ?? error) as { code?: string; constraint?: string };
  return native?.code === '23505' && native.constraint === ONE_LIVE_COMP;
};

/**
 * A course staff give one person from their page in the console (a comp): a Valid purchase of kind `comp` that costs
 * nothing, has no charge, coupon or split line (so no revenue anywhere), with the reason and who gave it, audited
 * under the purchase (the person's timeline shows it). Refused when the person already has the course, is blocked,
 * or the product is archived, a draft or sold out. Under the product's lock, as a checkout's fulfilment takes it, so
 * two clicks (or a payment settling meanwhile) never make two copies; the unique index on live comps backs that up.
 * The person is sent the receipt's way in (a sign-in link onto the course), after commit.
 */
export function comps({
  db,
  clock,
  outbox,
  publicUrl,
}: {
  db: Db;
  clock: Clock;
  outbox: Pick<Outbox, 'enqueue' | 'flushInBackground'>;
  publicUrl: string;
}) {
  return {
    async give(
      userId: string,
      input: { productId: string; reason: string },
      request: { actor: Actor & { id: string }; requestId: string | null },
    ): Promise<CompGiven> {
      let answer: CompGiven;
      try {
        answer = await db.transaction(async (trx) => {
          const product = (await trx('products').where({ id: input.productId }).forUpdate().first()) as
            Product | undefined;
          if (!product) throw new AppError('product-not-found', 'No such product.', { productId: 'choose a product' });
          // Share-locked: a block committing meanwhile waits, and this comp stays as the person's earlier purchases do.
          const person = (await trx('users').where({ id: userId }).forShare().first('id', 'email', 'blockedAt')) as
            { id: string; email: string; blockedAt: Date | null } | undefined;
          if (!person) throw new AppError('not-found', `No users record with id ${userId}.`);
          if (person.blockedAt)
            throw new AppError('person-blocked', `${person.email} is blocked: unblock them first to give a course.`);
          if (product.status === 'archived')
            throw new AppError('product-archived', `${product.name} is archived: it can no longer be given.`, {
              productId: 'this product is archived',
            });
          if (product.status === 'draft')
            throw new AppError('product-draft', `${product.name} is a draft: publish it before giving it.`, {
              productId: 'this product is a draft',
            });
          const held = await holdingOf(trx, userId, product.id);
          if (held)
            throw new AppError(
              'already-purchased',
              held.redeemedBulkCouponId
                ? `${person.email} already has ${product.name} through a team seat.`
                : `${person.email} already has ${product.name}.`,
            );
          // A comp takes a seat like any purchase: a limited product's last one goes to whoever locks it first.
          if (product.quantityAvailable >= 0 && (await seatsSold(trx, product.id)) >= product.quantityAvailable)
            throw new AppError('sold-out', `${product.name} is sold out: every seat is taken.`);
          const price = await trx('prices').where({ productId: product.id, status: 'active' }).first('currency');
          const [purchase] = (await trx('purchases')
            .insert({
              userId,
              productId: product.id,
              status: 'Valid',
              kind: 'comp',
              totalAmount: 0,
              currency: price?.currency ?? 'usd',
              compReason: input.reason,
              compedById: request.actor.id,
            })
            .returning(['id', 'createdAt'])) as { id: string; createdAt: Date }[];
          const now = clock.now();
          const signInUrl = await receiptSignInLink(trx, {
            publicUrl,
            email: person.email,
            path: await leadInPath(trx, product.id),
            now,
          });
          const emailId = await outbox.enqueue(
            trx,
            courseGivenEmail(person.email, product.name, { signInUrl, days: RECEIPT_SIGN_IN_DAYS }),
          );
          await recordAudit(trx, {
            actor: request.actor,
            requestId: request.requestId,
            action: 'purchase.comped',
            resource: 'purchases',
            recordId: purchase!.id,
            after: {
              userId,
              productId: product.id,
              product: product.name,
              kind: 'comp',
              totalAmount: 0,
              reason: input.reason,
              emailId,
            },
          });
          return {
            purchaseId: purchase!.id,
            userId,
            productId: product.id,
            productName: product.name,
            createdAt: purchase!.createdAt,
            emailedTo: person.email,
          };
        });
      } catch (error) {
        // Two requests that both got past the checks: the index lets one comp through, the other is told so.
        if (isOneLiveCompViolation(error))
          throw new AppError('already-purchased', 'This person was just given this course.');
        throw error;
      }
      outbox.flushInBackground();
      return answer;
    },
  };
}

export type Comps = ReturnType<typeof comps>;
