import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import { rememberedAccountId } from './merchant-records';
import { payOut, recordMovement, testProviderFee, testProviderLedger } from './test-provider-ledger';
import { moveRefunded, refundedOf } from './test-provider-charges';
import { testProviderSubscriptions } from './test-provider-subscriptions';
import { withCardAndRetries, type TestProviderBilling } from './test-provider-card';
import type { TaxShown } from '../shared/tax-text';
import type { TaxAnswer } from '../tax/types';
import type { CheckoutRequest, PaymentProvider, ProviderCheckout, ProviderRefund, RefundSettlement } from './provider';

export const TEST_ACCOUNT = { label: 'test', identifier: 'test-provider' } as const;
export const TEST_CHECKOUT_PATH = '/test-provider/checkout';

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

export { testProviderFee } from './test-provider-ledger';

const taxShownOf = ({ name, rate, amount, inclusive, reverseCharge }: TaxAnswer): TaxShown => ({
  name,
  rate,
  amount,
  inclusive,
  reverseCharge,
});

/** Why the test provider fails a refund it held pending. */
export const TEST_REFUND_FAILURE = 'The card was closed (test provider)';

/** A refund of the test provider as the port's answer. */
function answerOf(
  identifier: string,
  refund: { amount: number; status: string },
  refundedTotal: number,
): ProviderRefund {
  if (refund.status === 'failed') throw new AppError('refund-not-possible', TEST_REFUND_FAILURE);
  return refund.status === 'pending'
    ? { status: 'pending', identifier, amount: refund.amount }
    : { status: 'succeeded', identifier, amount: refund.amount, refundedTotal };
}

/**
 * The zero-configuration provider: checkouts live in its own table and are paid on its own hosted page
 * (Pay / Cancel), then end in the same fulfilment as Stripe.
 */
export function testProvider({
  db,
  clock,
  config,
}: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
}): PaymentProvider & {
  subscriptions: TestProviderBilling;
  /** From now on, refunds stay pending until `settleRefund` (a card processor's slow refunds); off at start. */
  refundsPending(on: boolean): void;
  /** Settles a pending refund: the event a real provider would send, or null when it was not pending. */
  settleRefund(identifier: string, outcome: RefundSettlement['outcome']): Promise<RefundSettlement | null>;
  pay(identifier: string): Promise<{ redirect: string }>;
  /** A refund made at the provider itself, not asked by us (as in a processor's dashboard): its id. */
  refundAtProvider(chargeIdentifier: string, amount: number): Promise<string>;
  /** The provider's payout to the school's bank of everything not yet paid out: the payouts' ids. */
  payOut(): Promise<string[]>;
  cancel(identifier: string): Promise<{ redirect: string }>;
  page(identifier: string): Promise<{
    description: string;
    amount: number;
    currency: string;
    status: string;
    customerEmail: string;
    tax: TaxShown | null;
  }>;
} {
  let refundsHeld = false;
  async function session(identifier: string) {
    const row = await db('testProviderSessions').where({ identifier }).first();
    if (!row) throw new AppError('not-found', 'No such test checkout.');
    return row;
  }
  async function retrieveCheckout(identifier: string): Promise<ProviderCheckout> {
    const row = await session(identifier);
    return {
      status: row.status,
      amount: row.amount,
      currency: row.currency,
      charge: row.chargeIdentifier
        ? { identifier: row.chargeIdentifier, amount: row.amount, fee: testProviderFee(row.amount) }
        : null,
      customer: row.customerIdentifier ? { identifier: row.customerIdentifier, email: row.customerEmail } : null,
    };
  }
  return {
    label: TEST_ACCOUNT.label,
    account: async () => TEST_ACCOUNT,
    accountId: rememberedAccountId(db, async () => TEST_ACCOUNT),
    ledger: testProviderLedger(db),
    payOut: () => payOut(db),
    subscriptions: withCardAndRetries(testProviderSubscriptions({ db, clock, config }), { db, clock, config }),

    async createCheckout(request: CheckoutRequest) {
      const identifier = id('cs');
      await db('testProviderSessions').insert({
        identifier,
        amount: request.amount,
        currency: request.currency,
        description: request.description,
        customerEmail: request.customerEmail,
        successUrl: request.successUrl,
        cancelUrl: request.cancelUrl,
        // The tax inside (or already added to) the amount, for the page to show as a real provider's does.
        tax: request.tax ? JSON.stringify(taxShownOf(request.tax)) : null,
      });
      return { identifier, url: new URL(`${TEST_CHECKOUT_PATH}/${identifier}`, config.publicUrl).toString() };
    },

    retrieveCheckout,

    async expireCheckout(identifier: string): Promise<ProviderCheckout> {
      // One conditional update, as pay's: a payment at the same moment either lands first (and stays) or finds it canceled.
      await db('testProviderSessions').where({ identifier, status: 'open' }).update({ status: 'canceled' });
      return retrieveCheckout(identifier);
    },

    async refund({ chargeIdentifier, amount, idempotencyKey }): Promise<ProviderRefund> {
      const identifier = `re_test_${idempotencyKey}`;
      return db.transaction(async (trx) => {
        const [fresh] = await trx('testProviderRefunds')
          .insert({ idempotencyKey, chargeIdentifier, amount, status: refundsHeld ? 'pending' : 'succeeded' })
          .onConflict('idempotencyKey')
          .ignore()
          .returning(['amount', 'status']);
        const refund = fresh ?? (await trx('testProviderRefunds').where({ idempotencyKey }).first('amount', 'status'));
        if (!fresh) return answerOf(identifier, refund, await refundedOf(trx, chargeIdentifier));
        // One conditional update: never refunds more than was charged, whoever asks at the same time. A pending
        // refund counts as refunded until it fails, as a card processor counts it.
        const row = await moveRefunded(trx, chargeIdentifier, amount);
        if (!row) throw new AppError('refund-too-large', 'The refund is more than what is left of the charge.');
        // The refund leaves the balance as it is made, pending or not (a failure gives it back).
        const { currency } = row as { currency: string };
        await recordMovement(trx, {
          kind: 'refund',
          sourceIdentifier: identifier,
          chargeIdentifier,
          amount: -amount,
          currency,
        });
        return answerOf(identifier, refund, row.refunded as number);
      });
    },

    refundsPending(on: boolean) {
      refundsHeld = on;
    },

    async settleRefund(identifier: string, outcome: RefundSettlement['outcome']): Promise<RefundSettlement | null> {
      const idempotencyKey = identifier.replace(/^re_test_/, '');
      return db.transaction(async (trx) => {
        const [settled] = await trx('testProviderRefunds')
          .where({ idempotencyKey, status: 'pending' })
          .update({ status: outcome })
          .returning(['chargeIdentifier', 'amount']);
        if (!settled) return null;
        if (outcome === 'failed') {
          const charge = (await moveRefunded(trx, settled.chargeIdentifier, -settled.amount))!;
          await recordMovement(trx, {
            kind: 'refund_failure',
            sourceIdentifier: identifier,
            chargeIdentifier: settled.chargeIdentifier,
            amount: settled.amount,
            currency: charge.currency,
          });
        }
        const failureReason = outcome === 'failed' ? TEST_REFUND_FAILURE : null;
        return { identifier, idempotencyKey, outcome, failureReason };
      });
    },

    async updateCustomerEmail(customerIdentifier: string, email: string) {
      await db('testProviderSessions').where({ customerIdentifier }).update({ customerEmail: email });
    },

    async pay(identifier: string) {
      const row = await session(identifier);
      await db.transaction(async (trx) => {
        const [paid] = await trx('testProviderSessions')
          .where({ identifier, status: 'open' })
          .update({ status: 'paid', paidAt: db.fn.now(), chargeIdentifier: id('ch'), customerIdentifier: id('cus') })
          .returning(['chargeIdentifier', 'amount', 'currency']);
        if (paid)
          await recordMovement(trx, {
            kind: 'charge',
            sourceIdentifier: paid.chargeIdentifier,
            chargeIdentifier: paid.chargeIdentifier,
            amount: paid.amount,
            fee: testProviderFee(paid.amount),
            currency: paid.currency,
          });
      });
      return { redirect: row.successUrl };
    },

    async refundAtProvider(chargeIdentifier: string, amount: number) {
      const identifier = id('re');
      await db.transaction(async (trx) => {
        const charge = await moveRefunded(trx, chargeIdentifier, amount);
        if (!charge) throw new AppError('refund-too-large', 'The refund is more than what is left of the charge.');
        const refund = { kind: 'refund' as const, sourceIdentifier: identifier, chargeIdentifier, amount: -amount };
        await recordMovement(trx, { ...refund, currency: charge.currency });
      });
      return identifier;
    },

    async cancel(identifier: string) {
      const row = await session(identifier);
      await db('testProviderSessions').where({ identifier, status: 'open' }).update({ status: 'canceled' });
      return { redirect: row.cancelUrl };
    },

    async page(identifier: string) {
      const row = await session(identifier);
      return {
        description: row.description,
        amount: row.amount,
        currency: row.currency,
        status: row.status,
        customerEmail: row.customerEmail,
        tax: (row.tax as TaxShown | null) ?? null,
      };
    },
  };
}

export type TestProvider = ReturnType<typeof testProvider>;
