import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JOBS_SCHEMA } from '../../api/src/jobs/models';
import { SEND_EMAIL } from '../../api/src/mail/outbox';
import { createProduct, createRevenueSplit } from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import { sessionOfCheckout } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { deliverSigned, standInEnv, startStripeStandIn, type StandIn } from '../support/stripe-stand-in';

/**
 * What a webhook fulfilment's transaction leaves out with the read caches on: the school the receipt comes from is
 * read from the cache once it holds it, and the receipt's delivery job is written by the purchase's own statement,
 * so neither costs a round trip; the receipt still goes out once, after commit.
 */
describe('a webhook fulfilment with the read caches on', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let stripe: StandIn;
  let app: ReturnType<typeof testApp>;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    app = testApp(db(), { config: testConfig({ ...standInEnv(stripe), READ_CACHE_MS: '60000' }) });
  });
  afterAll(() => stripe?.close());

  /** The statements of one fulfilment's transaction, BEGIN and COMMIT left out. */
  async function fulfilled(productId: string, email: string) {
    const created = await request(app).post('/api/store/checkout').send({ productId, email });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const completed = stripe.pay(await sessionOfCheckout(db(), created.body.checkoutId));
    const sent: string[] = [];
    const record = (q: { sql: string }) => sent.push(q.sql.trim());
    db().on('query', record);
    try {
      expect((await deliverSigned(app, completed)).body).toEqual({ received: true });
    } finally {
      db().off('query', record);
    }
    const begin = sent.findIndex((sql) => sql.startsWith('BEGIN'));
    const commit = sent.findIndex((sql) => sql.startsWith('COMMIT'));
    expect(commit).toBeGreaterThan(begin);
    expect(begin).toBeGreaterThan(-1);
    return sent.slice(begin + 1, commit);
  }

  it('reads the school from the cache and writes the receipt and its job with the purchase', async () => {
    const product = await createProduct(db());
    await createRevenueSplit(db(), { productId: product.id, type: 'platform', percent: 1 });
    await fulfilled(product.id, 'first-cached@example.com');
    const inside = await fulfilled(product.id, 'second-cached@example.com');

    // The invoice's seller is read with the charge, as it is now; the receipt's brand may come from the cache.
    expect(inside.filter((sql) => /from "school_settings"/.test(sql))).toEqual([]);
    const jobWrites = inside.filter((sql) => /\bpgboss\b.*\bjob\b/s.test(sql));
    expect(jobWrites).toHaveLength(1);
    expect(jobWrites[0]).toMatch(/^with "purchase(_\d+)?" as/);
    expect(jobWrites[0]).toMatch(/"outbox_emails"/);

    for (const to of ['first-cached@example.com', 'second-cached@example.com']) {
      const email = await db()('outboxEmails').where({ toAddress: to }).first('id', 'fromName');
      expect(email.fromName).toBeTruthy();
      const jobs = await db()(`${JOBS_SCHEMA}.job`)
        .where({ name: SEND_EMAIL })
        .whereRaw(`data->>'emailId' = ?`, [email.id]);
      expect(jobs).toHaveLength(1);
      await vi.waitFor(
        async () => {
          const row = await db()('outboxEmails').where({ id: email.id }).first('status', 'attempts');
          expect(row).toEqual({ status: 'sent', attempts: 1 });
        },
        { timeout: 10_000, interval: 50 },
      );
    }
  });
});
