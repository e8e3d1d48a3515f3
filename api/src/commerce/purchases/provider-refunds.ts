import type { Knex } from 'knex';
import { SYSTEM_ACTOR } from '../../audit/record';
import { refundEmail } from '../../mail/templates';
import { formatMoney } from '../../shared/money';
import type { LifecycleDeps } from './lifecycle-deps';
import { chargeByIdentifier } from './locks';
import { applyRefundTotal, countableTotal } from './refund-total';

/**
 * `charge.refunded`: the provider's total refunded, whoever started the refund. Money that went back without a refund
 * of ours (one made in the provider's dashboard) is recorded as a refund of its own, reason 'provider', under the
 * event's id (the event names the charge, not the refund), so that reports count it. Our refunds the provider still
 * holds pending are left out of the total until their own event settles them.
 */
export async function chargeRefunded(
  deps: Pick<LifecycleDeps, 'db' | 'logger' | 'outbox'>,
  accountId: string,
  chargeIdentifier: string,
  amountRefunded: number,
  eventId: string,
): Promise<void> {
  await recordProviderTotal(deps, accountId, chargeIdentifier, eventId, (trx, chargeId) =>
    countableTotal(trx, chargeId, amountRefunded),
  );
}

/**
 * A refund of `amount` the provider made whose event never came (found by reconciliation, docs/domain.md §20): the
 * charge's total is what the books hold refunded (our refunds it holds pending too, as it counts them) and this one,
 * read under the charge's lock, so two such refunds of one charge recovered at once are both recorded whole. One
 * already recorded under its id adds nothing.
 */
export async function refundedAtProvider(
  deps: Pick<LifecycleDeps, 'db' | 'logger' | 'outbox'>,
  accountId: string,
  chargeIdentifier: string,
  amount: number,
  refundIdentifier: string,
): Promise<void> {
  await recordProviderTotal(deps, accountId, chargeIdentifier, refundIdentifier, async (trx, chargeId) => {
    const recorded = await trx('merchantRefunds')
      .where({ merchantAccountId: accountId, identifier: refundIdentifier })
      .first('id');
    const held = (await trx('merchantRefunds')
      .where({ merchantChargeId: chargeId })
      .where((q) =>
        q.where('status', 'succeeded').orWhere((p) => p.where('status', 'pending').whereNotNull('identifier')),
      )
      .first(trx.raw('coalesce(sum(amount), 0)::int as total'))) as { total: number };
    return countableTotal(trx, chargeId, Number(held.total) + (recorded ? 0 : amount));
  });
}

/** Records a charge's refunded total at the provider, `totalOf` read under the charge's lock. */
async function recordProviderTotal(
  { db, logger, outbox }: Pick<LifecycleDeps, 'db' | 'logger' | 'outbox'>,
  accountId: string,
  chargeIdentifier: string,
  eventId: string,
  totalOf: (trx: Knex.Transaction, chargeId: string) => Promise<number>,
): Promise<void> {
  const emailed = await db.transaction(async (trx) => {
    const charge = await chargeByIdentifier(trx, accountId, chargeIdentifier);
    if (!charge) return logger.warn({ chargeIdentifier }, 'refund event for a charge we do not know; ignored');
    const total = await totalOf(trx, charge.id);
    const reason = 'Refunded at the payment provider';
    const result = await applyRefundTotal(trx, charge, total, reason, SYSTEM_ACTOR, null);
    const grown = result.refundAmount - charge.refundAmount;
    // A refund started at the provider's dashboard is told to the buyer as one from the console is; one of ours
    // under way (or failed before the provider answered, to be tried again) emails when it completes (under the
    // charge's lock, so exactly one of the two sends).
    const ours = await trx('merchantRefunds')
      .where({ merchantChargeId: charge.id })
      .whereIn('status', ['pending', 'failed'])
      .whereNull('identifier')
      .first('id');
    if (grown <= 0 || ours) return false;
    await trx('merchantRefunds')
      .insert({
        merchantAccountId: accountId,
        merchantChargeId: charge.id,
        identifier: eventId,
        status: 'succeeded',
        amount: grown,
        reasonCode: 'provider',
        idempotencyKey: `provider-${charge.id}-to-${result.refundAmount}`,
      })
      .onConflict()
      .ignore();
    const buyer = await trx('users').where({ id: charge.userId }).first('email');
    const product = await trx('purchases as p')
      .join('products as pr', 'pr.id', 'p.productId')
      .where('p.merchantChargeId', charge.id)
      .first('pr.name');
    await outbox.enqueue(trx, refundEmail(buyer.email, product.name, formatMoney(grown, charge.currency), result.full));
    return true;
  });
  if (emailed) outbox.flushInBackground();
}
