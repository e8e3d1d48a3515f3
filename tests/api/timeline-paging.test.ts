import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createUser } from '../../seeds/factories';
import { testApp } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

interface Event {
  id: string;
  at: string;
  kind: string;
}

/**
 * A timeline page reads each source only as far as the page reaches: paging through a person with many events of
 * every kind, many at the same instant, must still give every event once, in the timeline's order.
 */
describe('timeline paging', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let support: SignedIn;
  let personId: string;
  /** Each kind's events written for the person. */
  const written: Record<string, number> = {
    purchase: 15,
    payment: 15,
    refund: 15,
    dispute: 15,
    transfer: 5,
    'sign-in': 20,
    email: 20,
    note: 10,
    'staff-action': 30,
  };

  beforeAll(async () => {
    support = await signedIn(db(), ['support']);
    const person = await createUser(db());
    const giver = await createUser(db());
    personId = person.id;
    const product = await createProduct(db(), { name: 'Paged Course' });
    // Seven instants an hour apart: every source has several events at each, and so do the sources together.
    const at = (i: string) => `'2026-11-01T12:00:00Z'::timestamptz - ((${i}) % 7) * interval '1 hour'`;
    await db().raw(
      `WITH account AS (INSERT INTO merchant_accounts (label, identifier) VALUES ('paged', 'acct_paged') RETURNING id),
            mp AS (INSERT INTO merchant_products (merchant_account_id, identifier, product_id)
                   SELECT id, 'prod_paged', :product FROM account RETURNING id, merchant_account_id),
            charges AS (INSERT INTO merchant_charges (merchant_account_id, identifier, amount, net, user_id,
                                                      merchant_product_id, created_at)
                        SELECT mp.merchant_account_id, 'ch_paged_' || i, 4900, 4700, :person, mp.id, ${at('i')}
                          FROM mp, generate_series(1, 15) i RETURNING id, merchant_account_id, created_at)
       INSERT INTO purchases (user_id, product_id, status, total_amount, currency, merchant_charge_id, created_at)
       SELECT :person, :product, 'Valid', 4900, 'usd', id, created_at FROM charges`,
      { product: product.id, person: person.id },
    );
    await db().raw(
      `INSERT INTO merchant_refunds (merchant_account_id, merchant_charge_id, amount, idempotency_key, status,
                                     identifier, created_at)
       SELECT merchant_account_id, id, 100, 'paged-' || id, 'succeeded', 're_' || id, created_at + interval '1 minute'
         FROM merchant_charges WHERE user_id = :person`,
      { person: person.id },
    );
    await db().raw(
      `INSERT INTO merchant_disputes (merchant_account_id, identifier, merchant_charge_id, amount, created_at)
       SELECT merchant_account_id, 'dp_' || id, id, 4900, created_at FROM merchant_charges WHERE user_id = :person`,
      { person: person.id },
    );
    // Courses given to the person by someone who paid nothing through a charge: told as transfers, not purchases.
    await db().raw(
      `WITH given AS (INSERT INTO purchases (user_id, product_id, status, total_amount, currency, created_at)
                      SELECT :person, :product, 'Valid', 0, 'usd', ${at('i')} FROM generate_series(1, 5) i
                      RETURNING id, created_at)
       INSERT INTO purchase_user_transfers (purchase_id, source_user_id, target_user_id, transfer_state, expires_at,
                                            completed_at)
       SELECT id, :giver, :person, 'COMPLETED', created_at + interval '1 day', created_at FROM given`,
      { person: person.id, giver: giver.id, product: product.id },
    );
    await db().raw(
      `INSERT INTO sign_ins (user_id, method, created_at) SELECT :person, 'email', ${at('i')} FROM generate_series(1, 20) i`,
      { person: person.id },
    );
    await db().raw(
      `INSERT INTO outbox_emails (to_address, subject, kind, status, created_at)
       SELECT :email, 'Paged ' || i, 'sign-in', 'sent', ${at('i')} FROM generate_series(1, 20) i`,
      { email: person.email },
    );
    await db().raw(
      `INSERT INTO staff_notes (user_id, author_email, body, created_at)
       SELECT :person, 'support@example.com', 'Note ' || i, ${at('i')} FROM generate_series(1, 10) i`,
      { person: person.id },
    );
    await db().raw(
      `INSERT INTO comments (user_id, text) SELECT :person, 'Comment ' || i FROM generate_series(1, 5) i`,
      { person: person.id },
    );
    // The audit log's entries about the person, their purchases, the transfers to them and their comments.
    await db().raw(
      `INSERT INTO audit_logs (action, resource, record_id, actor_email, created_at)
       SELECT 'update', 'users', :person, 'support@example.com', ${at('i')} FROM generate_series(1, 10) i
       UNION ALL
       (SELECT 'update', 'purchases', p.id::text, 'support@example.com', ${at('row_number() OVER ()')}
          FROM purchases p WHERE p.merchant_charge_id IS NOT NULL AND p.user_id = :person LIMIT 10)`,
      { person: person.id },
    );
    await db().raw(
      `INSERT INTO audit_logs (action, resource, record_id, actor_email, created_at)
       SELECT 'update', 'purchase-user-transfers', t.id::text, 'support@example.com', t.completed_at
         FROM purchase_user_transfers t WHERE t.target_user_id = :person
       UNION ALL
       SELECT 'update', 'comments', c.id::text, 'support@example.com', ${at('row_number() OVER ()')}
         FROM comments c WHERE c.user_id = :person`,
      { person: person.id },
    );
    // Someone else's events stay off the person's timeline.
    await db().raw(
      `INSERT INTO sign_ins (user_id, method, created_at) SELECT :giver, 'email', ${at('i')} FROM generate_series(1, 5) i`,
      { giver: giver.id },
    );
  });

  const page = (n: number, perPage: number) =>
    as(support, request(testApp(db())).get(`/api/admin/users/${personId}/timeline`).query({ page: n, perPage }));

  it('gives every event exactly once, newest first, page after page, with the exact total', async () => {
    const expected = Object.values(written).reduce((a, b) => a + b, 0);
    for (const perPage of [7, 25]) {
      const seen: Event[] = [];
      for (let n = 1; ; n++) {
        const answer = await page(n, perPage);
        expect(answer.status).toBe(200);
        expect(answer.body.total).toBe(expected);
        if (!answer.body.data.length) break;
        seen.push(...(answer.body.data as Event[]));
      }
      expect(seen).toHaveLength(expected);
      expect(new Set(seen.map((e) => e.id)).size).toBe(expected);
      const perKind = Object.fromEntries(Object.keys(written).map((k) => [k, seen.filter((e) => e.kind === k).length]));
      expect(perKind).toEqual(written);
      // The timeline's order: newest first, then kind, then the record's id from last to first.
      const order = (a: Event, b: Event) =>
        Date.parse(b.at) - Date.parse(a.at) ||
        (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0) ||
        (a.id.split(':')[1]! < b.id.split(':')[1]! ? 1 : -1);
      expect(seen.map((e) => e.id)).toEqual([...seen].sort(order).map((e) => e.id));
    }
  });

  it('answers a page past the end with no events and the same total', async () => {
    const past = await page(50, 25);
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect(past.body.total).toBe(Object.values(written).reduce((a, b) => a + b, 0));
  });
});
