import { randomBytes } from 'node:crypto';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import { rememberedAccountId } from './merchant-records';
import type { CheckoutRequest, PaymentProvider, ProviderCheckout } from './provider';

export const TEST_ACCOUNT = { label: 'test', identifier: 'test-provider' } as const;
export const TEST_CHECKOUT_PATH = '/test-provider/checkout';

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

/** Fees as a card processor would take them: 2.9 % + 30 ¢ (none on nothing). */
export function testProviderFee(amount: number): number {
  return amount > 0 ? Math.round(amount * 0.029) + 30 : 0;
}

/**
 * The zero-configuration provider: checkouts live in its own table and are paid on its own hosted page
 * (Pay / Cancel), then end in the same fulfilment as Stripe.
 */
export function testProvider({ db, config }: { db: Db; config: Pick<Config, 'publicUrl'> }): PaymentProvider & {
  pay(identifier: string): Promise<{ redirect: string }>;
  cancel(identifier: string): Promise<{ redirect: string }>;
  page(
    identifier: string,
  ): Promise<{ description: string; amount: number; currency: string; status: string; customerEmail: string }>;
} {
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
      });
      return { identifier, url: new URL(`${TEST_CHECKOUT_PATH}/${identifier}`, config.publicUrl).toString() };
    },

    retrieveCheckout,

    async expireCheckout(identifier: string): Promise<ProviderCheckout> {
      // One conditional update, as pay's: a payment at the same moment either lands first (and stays) or finds it canceled.
      await db('testProviderSessions').where({ identifier, status: 'open' }).update({ status: 'canceled' });
      return retrieveCheckout(identifier);
    },

    async refund({ chargeIdentifier, amount, idempotencyKey }) {
      const identifier = `re_test_${idempotencyKey}`;
      return db.transaction(async (trx) => {
        const [fresh] = await trx('testProviderRefunds')
          .insert({ idempotencyKey, chargeIdentifier, amount })
          .onConflict('idempotencyKey')
          .ignore()
          .returning('amount');
        if (!fresh) {
          const replayed = await trx('testProviderRefunds').where({ idempotencyKey }).first('amount');
          const charge = await trx('testProviderSessions').where({ chargeIdentifier }).first('refunded');
          return { identifier, amount: replayed.amount as number, refundedTotal: charge.refunded as number };
        }
        // One conditional update: never refunds more than was charged, whoever asks at the same time.
        const [row] = await trx('testProviderSessions')
          .where({ chargeIdentifier })
          .whereRaw('refunded + ? <= amount', [amount])
          .increment('refunded', amount)
          .returning('refunded');
        if (!row) throw new AppError('refund-too-large', 'The refund is more than what is left of the charge.');
        return { identifier, amount, refundedTotal: row.refunded as number };
      });
    },

    async updateCustomerEmail(customerIdentifier: string, email: string) {
      await db('testProviderSessions').where({ customerIdentifier }).update({ customerEmail: email });
    },

    async pay(identifier: string) {
      const row = await session(identifier);
      await db('testProviderSessions')
        .where({ identifier, status: 'open' })
        .update({ status: 'paid', paidAt: db.fn.now(), chargeIdentifier: id('ch'), customerIdentifier: id('cus') });
      return { redirect: row.successUrl };
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
      };
    },
  };
}

export type TestProvider = ReturnType<typeof testProvider>;
