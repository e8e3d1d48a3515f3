import type { Actor } from '../../audit/record';
import { recordAudit } from '../../audit/record';
import type { Clock } from '../../clock';
import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import type { OutboxEmail } from '../../mail/models';
import type { Outbox } from '../../mail/outbox';
import { grantsAccess } from '../../shared/purchase-status';
import type { CheckoutRow } from '../checkout/checkout-rows';
import type { ProductFacts } from '../checkout/locked-checkout';
import { queueReceipt } from '../checkout/settle-steps';

/**
 * A purchase's receipt sent again from the console (the buyer lost it, or it went to spam): written afresh, as its
 * settlement wrote it, with a new sign-in link, since the first link is never stored and works once. A receipt is a
 * payment's: it goes to the payer (the charge's user), whose invoice it links, also after the purchase was given
 * away (then it leads to their invoices, not into a course they no longer hold). One email per request key: a double
 * click sends one.
 */
export function receiptAgain({
  db,
  clock,
  outbox,
  publicUrl,
}: {
  db: Db;
  clock: Clock;
  outbox: Pick<Outbox, 'prepare' | 'flushInBackground'>;
  publicUrl: string;
}) {
  return {
    async send(
      purchaseId: string,
      request: { key: string; actor: Actor; requestId: string | null },
    ): Promise<{ email: OutboxEmail; created: boolean }> {
      const answer = await db.transaction(async (trx) => {
        // One email per purchase and key: requests with both the same wait for one another, and the first one's
        // email answers them all.
        const resendKey = `receipt:${purchaseId}:${request.key}`;
        await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [resendKey]);
        const made = (await trx('outboxEmails').where({ resendKey }).first()) as OutboxEmail | undefined;
        if (made) return { email: made, created: false };
        const purchase = await trx('purchases')
          .where({ id: purchaseId })
          .first('id', 'userId', 'status', 'merchantChargeId');
        if (!purchase) throw new AppError('not-found', `No purchases record with id ${purchaseId}.`);
        const checkout = (await trx('checkouts').where({ purchaseId }).first()) as CheckoutRow | undefined;
        if (!checkout || !purchase.merchantChargeId)
          throw new AppError(
            'receipt-not-available',
            'This purchase was not paid for by itself (a team seat, a free or moved purchase), so it has no receipt.',
          );
        // A purchase that ended (refunded, disputed, banned) opens nothing.
        if (!grantsAccess(purchase.status))
          throw new AppError(
            'receipt-not-available',
            `This purchase is ${purchase.status.toLowerCase()}: its receipt would lead nowhere. The invoice stays on its page.`,
          );
        const product = (await trx('products').where({ id: checkout.productId }).first()) as ProductFacts;
        const charge = await trx('merchantCharges').where({ id: purchase.merchantChargeId }).first('userId');
        const buyer = (await trx('users').where({ id: charge.userId }).first('id', 'email')) as {
          id: string;
          email: string;
        };
        const receipt = await queueReceipt(trx, outbox, {
          checkout,
          product,
          buyer,
          charge: { id: purchase.merchantChargeId },
          publicUrl,
          now: clock.now(),
          purchaseId,
          resendKey,
          givenAway: purchase.userId !== buyer.id,
        });
        const [inserted] = (await receipt!.insert.returning('id')) as { id: string }[];
        await receipt!.queue();
        await recordAudit(trx, {
          actor: request.actor,
          requestId: request.requestId,
          action: 'receipt-resent',
          resource: 'purchases',
          recordId: purchaseId,
          after: { emailId: inserted!.id, toAddress: buyer.email },
        });
        const email = (await trx('outboxEmails').where({ id: inserted!.id }).first()) as OutboxEmail;
        return { email, created: true };
      });
      if (answer.created) outbox.flushInBackground();
      return answer;
    },
  };
}

export type ReceiptAgain = ReturnType<typeof receiptAgain>;
