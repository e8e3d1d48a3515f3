import type { Db } from '../db/connection';
import type { Config } from '../config';
import { AppError } from '../shared/errors';
import type { Clock } from '../clock';
import type { SubscriptionEvent, SubscriptionPriceChange } from './provider';
import { changeTestPrice } from './test-provider-price-change';
import { changeTestPriceAtPeriodEnd, keepTestPrice } from './test-provider-waiting-change';
import { TEST_SUBSCRIPTION_PATH, type TestProviderSubscriptions } from './test-provider-subscriptions';

type Listener = (event: SubscriptionEvent) => Promise<unknown>;

/**
 * The test provider's card on file and its retries of a failed renewal (docs/domain.md §22): a renewal that failed
 * leaves the card declined, so retries fail too until the subscriber sets a card that works on the provider's card
 * page, which retries a past-due subscription's renewal at once. Like a real provider's, each retry's outcome reaches
 * commerce as an event (`deliverTo`).
 */
export function withCardAndRetries(
  subscriptions: TestProviderSubscriptions,
  { db, clock, config }: { db: Db; clock: Clock; config: Pick<Config, 'publicUrl'> },
) {
  let listener: Listener | null = null;
  const row = async (identifier: string) => {
    const found = (await db('testProviderSubscriptions')
      .where({ identifier })
      .first('reference', 'status', 'cardDeclined', 'cardReturnUrl', 'description', 'customerEmail')) as
      | {
          reference: string;
          status: string;
          cardDeclined: boolean;
          cardReturnUrl: string | null;
          description: string;
          customerEmail: string;
        }
      | undefined;
    if (!found) throw new AppError('not-found', 'No such test subscription.');
    return found;
  };

  /** Bills the failed period again with the card on file; its event is delivered. Null when nothing is owed. */
  async function retry(identifier: string): Promise<SubscriptionEvent | null> {
    const event = await subscriptions.retryOwed(identifier);
    if (!event) return null;
    await listener?.(event);
    return event;
  }

  return {
    ...subscriptions,

    /** A renewal asked for: its outcome is the card's from now on (a failure declines it, a payment clears it). */
    async renew(reference: string, outcome: 'paid' | 'failed', idempotencyKey: string | null) {
      const event = await subscriptions.renew(reference, outcome, idempotencyKey);
      await db('testProviderSubscriptions')
        .where({ identifier: event.identifier })
        .update({ cardDeclined: event.invoice.outcome === 'failed' });
      return event;
    },

    /** Where each event of a retry goes (commerce's recording): set once the services are built. */
    deliverTo(deliver: Listener): void {
      listener = deliver;
    },

    /** Monthly ↔ yearly, prorated (test-provider-price-change.ts); a paid invoice's event is delivered. */
    async changePrice(identifier: string, change: SubscriptionPriceChange): Promise<void> {
      const event = await changeTestPrice({ db, clock }, identifier, change);
      if (event) await listener?.(event);
    },

    /** A switch with nothing to pay now: the next renewal bills it (test-provider-waiting-change.ts). */
    changePriceAtPeriodEnd: (identifier: string, change: SubscriptionPriceChange) =>
      changeTestPriceAtPeriodEnd({ db }, identifier, change),

    keepPrice: (identifier: string, current: SubscriptionPriceChange) => keepTestPrice({ db }, identifier, current),

    async retryFailedInvoice(identifier: string): Promise<void> {
      await retry(identifier);
    },

    async paymentMethodUrl(identifier: string, returnUrl: string): Promise<string> {
      await db('testProviderSubscriptions').where({ identifier }).update({ cardReturnUrl: returnUrl });
      return new URL(`${TEST_SUBSCRIPTION_PATH}/${identifier}/card`, config.publicUrl).toString();
    },

    /** What the card page shows. */
    async cardPage(identifier: string) {
      const { description, customerEmail, cardDeclined, status } = await row(identifier);
      return { description, customerEmail, cardDeclined, status };
    },

    /**
     * The subscriber sets a card: one that works clears the decline and, while a renewal is owed, pays it at once;
     * one that fails is declined from then on. Answers where they go back to.
     */
    async setCard(identifier: string, works: boolean): Promise<{ redirect: string }> {
      await db('testProviderSubscriptions').where({ identifier }).update({ cardDeclined: !works });
      if (works) await retry(identifier);
      return { redirect: (await row(identifier)).cardReturnUrl ?? '/' };
    },
  };
}

export type TestProviderBilling = ReturnType<typeof withCardAndRetries>;
