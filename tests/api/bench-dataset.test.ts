import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { generateDataset, scaledSize, type Dataset } from '../bench/dataset';
import { recordingServer, replay, toRecording } from '../bench/query-replay';
import { testConfig, testDeps } from '../support/app';
import { signedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

/**
 * The benchmark's own correctness: its dataset is the ledger fulfilment would have written and grows without
 * duplicating, and its baselines send the product's own SQL.
 */
const database = useTestDatabase();
const TENTH = scaledSize(0.0005);
const FULL = scaledSize(0.001);

const count = async (sql: string) => Number((await database().db.raw(sql)).rows[0].n);

describe('benchmark dataset', () => {
  let data: Dataset;
  beforeAll(async () => {
    await generateDataset(database().db, TENTH);
    expect(await count(`SELECT count(*) AS n FROM merchant_charges WHERE identifier LIKE 'ch_bench_%'`)).toBe(
      TENTH.purchases,
    );
    data = await generateDataset(database().db, FULL);
  }, 240_000);

  it('grows the same database to the larger size, each row once', async () => {
    expect(await count(`SELECT count(*) AS n FROM merchant_charges WHERE identifier LIKE 'ch_bench_%'`)).toBe(
      FULL.purchases,
    );
    expect(await count(`SELECT count(DISTINCT identifier) AS n FROM merchant_charges`)).toBe(
      await count(`SELECT count(*) AS n FROM merchant_charges`),
    );
    expect(await count(`SELECT count(*) AS n FROM users WHERE email LIKE 'learner%@bench.example'`)).toBe(FULL.users);
    expect(await count(`SELECT count(*) AS n FROM audit_logs WHERE request_id ~ '^bench-[0-9]+$'`)).toBe(
      FULL.auditEntries,
    );
    expect(await count(`SELECT count(*) AS n FROM lesson_progress`)).toBe(FULL.progressRows);
    // Every charge has its purchase; about 2.2 ledger lines a charge, as at the full size.
    expect(
      await count(`SELECT count(*) AS n FROM merchant_charges ch LEFT JOIN purchases p ON p.merchant_charge_id = ch.id
                    WHERE p.id IS NULL`),
    ).toBe(0);
    const lines = await count(`SELECT count(*) AS n FROM split_lines`);
    const charges = await count(`SELECT count(*) AS n FROM merchant_charges`);
    expect(lines / charges).toBeGreaterThan(2.15);
    expect(lines / charges).toBeLessThan(2.3);
    // Every sale went through a checkout, settled to its purchase (some given away since), with its Stripe customer,
    // session and event.
    expect(
      await count(`SELECT count(*) AS n FROM purchases p
                     JOIN merchant_charges ch ON ch.id = p.merchant_charge_id
                     JOIN merchant_customers cu ON cu.id = ch.merchant_customer_id
                     JOIN checkouts c ON c.purchase_id = p.id AND c.status = 'fulfilled'
                      AND c.merchant_session_id = p.merchant_session_id
                     JOIN merchant_events e ON e.identifier = 'evt_' || substr(ch.identifier, 4)
                      AND e.processed_at IS NOT NULL
                    WHERE ch.identifier LIKE 'ch_bench_%'`),
    ).toBe(FULL.purchases);
  });

  it('writes the split ledger as fulfilment, refunds and disputes do: lines that add up to the money', async () => {
    // Sale lines: the net (amount − tax − fee); refund and dispute lines: minus what went back less its tax, over the
    // sale's lines.
    expect(
      await count(`SELECT count(*) AS n FROM (
                     SELECT ch.id FROM merchant_charges ch JOIN split_lines l ON l.merchant_charge_id = ch.id
                      WHERE l.kind = 'sale' GROUP BY ch.id, ch.amount, ch.tax_amount, ch.fee
                     HAVING sum(l.amount) <> ch.amount - ch.tax_amount - ch.fee) AS wrong`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM (
                     SELECT ch.id FROM merchant_charges ch JOIN split_lines l ON l.merchant_charge_id = ch.id
                      WHERE l.kind = 'refund' GROUP BY ch.id, ch.refund_amount, ch.refunded_tax
                     HAVING sum(l.amount) <> -(ch.refund_amount - ch.refunded_tax)) AS wrong`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM (
                     SELECT d.id FROM merchant_disputes d JOIN split_lines l ON l.merchant_charge_id = d.merchant_charge_id
                      WHERE l.kind = 'dispute' GROUP BY d.id, d.amount, d.tax_amount
                     HAVING sum(l.amount) <> -(d.amount - d.tax_amount)) AS wrong`),
    ).toBe(0);
    // The school's line is its share of the gross less tax; the author's carries the fee.
    expect(
      await count(`SELECT count(*) AS n FROM split_lines l JOIN merchant_charges ch ON ch.id = l.merchant_charge_id
                    WHERE l.kind = 'sale' AND l.recipient_type = 'platform'
                      AND l.amount <> round((ch.amount - ch.tax_amount) * 0.3)`),
    ).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM purchases WHERE status = 'Refunded'`)).toBeGreaterThan(0);
    expect(await count(`SELECT count(*) AS n FROM purchases WHERE status = 'Disputed'`)).toBeGreaterThan(0);
  });

  it('issues an invoice for every charge and a credit note for every refund, numbered on without gaps', async () => {
    // One invoice a charge, of its amount and tax; one credit note a refund, crediting its charge's invoice in full.
    expect(
      await count(`SELECT count(*) AS n FROM merchant_charges ch
                    LEFT JOIN invoices i ON i.merchant_charge_id = ch.id AND i.kind = 'invoice'
                      AND i.total = ch.amount AND i.tax_amount = ch.tax_amount
                      AND i.tax_country IS NOT DISTINCT FROM ch.tax_country
                   WHERE i.id IS NULL`),
    ).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM invoices WHERE kind = 'invoice'`)).toBe(
      await count(`SELECT count(*) AS n FROM merchant_charges`),
    );
    expect(
      await count(`SELECT count(*) AS n FROM merchant_refunds r
                    LEFT JOIN invoices n ON n.merchant_charge_id = r.merchant_charge_id AND n.kind = 'credit-note'
                      AND n.total = r.amount AND n.supplied_at = r.created_at
                    LEFT JOIN invoices i ON i.id = n.invoice_id AND i.merchant_charge_id = r.merchant_charge_id
                   WHERE i.id IS NULL`),
    ).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM invoices WHERE kind = 'credit-note'`)).toBe(
      await count(`SELECT count(*) AS n FROM merchant_refunds`),
    );
    // Each kind's numbers of a year run 1..n, and its counter holds n: the next number issued follows on.
    expect(
      await count(`SELECT count(*) AS n FROM (
                     SELECT kind, year FROM invoices GROUP BY kind, year
                     HAVING min(sequence) <> 1 OR max(sequence) <> count(*)
                         OR max(sequence) <> (SELECT last FROM invoice_counters c
                                               WHERE c.kind = invoices.kind AND c.year = invoices.year)) AS wrong`),
    ).toBe(0);
    // Every scheme of the tax report, in both currencies, with refunds of taxed sales too.
    const schemes = (
      await database().db.raw(`SELECT DISTINCT kind || ' ' || currency || ' ' || tax_scheme AS s FROM invoices`)
    ).rows.map((r: { s: string }) => r.s);
    expect(schemes).toEqual(
      expect.arrayContaining([
        'invoice eur domestic',
        'invoice eur eu-oss',
        'invoice eur reverse-charge',
        'invoice usd registration',
        'invoice usd not-taxed',
        'credit-note usd registration',
      ]),
    );
    expect(schemes.filter((scheme: string) => scheme.startsWith('credit-note eur'))).not.toEqual([]);
  });

  it('gives one person a timeline of every kind, hundreds deep, and one staff member thousands of actions', async () => {
    const { db } = database();
    const admin = await signedIn(db, ['admin']);
    const app = createApp(testDeps(db));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const at = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/admin/users`;
      const kinds = new Set<string>();
      let total = 0;
      for (let page = 1; page <= 20; page++) {
        const response = await fetch(`${at}/${data.richPersonId}/timeline?page=${page}&perPage=100`, {
          headers: { Cookie: admin.cookie },
        });
        expect(response.status).toBe(200);
        const body = (await response.json()) as { data: { kind: string }[]; total: number };
        total = body.total;
        for (const event of body.data) kinds.add(event.kind);
        if (page * 100 >= total) break;
      }
      expect(total).toBeGreaterThan(1000);
      expect([...kinds].sort()).toEqual(
        ['email', 'note', 'payment', 'purchase', 'refund', 'sign-in', 'staff-action', 'transfer'].sort(),
      );
    } finally {
      server.close();
    }
    // One in 64 of the log's actions at any size: thousands at the full size.
    const byStaff = await count(
      `SELECT count(*) AS n FROM audit_logs WHERE actor_id = '${data.heavyStaffId}' AND request_id ~ '^bench-[0-9]+$'`,
    );
    expect(byStaff).toBe(Math.floor(FULL.auditEntries / 64));
  });
});

describe('baseline replay', () => {
  it('groups what was in flight together into one wave, and a transaction into one unit', () => {
    const s = (started: number, ended: number, txId?: string) => ({
      sql: `select ${started}`,
      bindings: [],
      options: {},
      txId,
      uid: String(started),
      started,
      ended,
    });
    // 1 and 2 overlap (Promise.all); 4 starts after both answered; 5–7 are one transaction.
    const recording = toRecording([s(1, 4), s(2, 3), s(5, 6), s(7, 8, 'trx1'), s(9, 10, 'trx1'), s(11, 12, 'trx1')]);
    expect(recording.waves.map((wave) => wave.map((unit) => unit.map((st) => st.started)))).toEqual([
      [[1], [2]],
      [[5]],
      [[7, 9, 11]],
    ]);
  });

  it('sends the SQL the product sent for a request, and gets the rows the product answered', async () => {
    const { db } = database();
    const admin = await signedIn(db, ['admin']);
    const app = createApp(testDeps(db, { config: testConfig({ READ_CACHE_MS: '0' }) }));
    const { server, recordings } = recordingServer(app.callback(), db);
    server.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const query = `sort=${encodeURIComponent('["createdAt","DESC"]')}&range=${encodeURIComponent('[0,9]')}`;
      const response = await fetch(`http://127.0.0.1:${port}/api/admin/purchases?${query}`, {
        headers: { Cookie: admin.cookie, 'x-bench-record': 'list' },
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { id: string }[] | { data: { id: string }[] };
      const listed = (Array.isArray(body) ? body : body.data).map((p) => p.id);
      expect(listed).toHaveLength(10);
      await expect.poll(() => recordings.has('list')).toBe(true);
      const recording = recordings.get('list')!;
      // The session lookup, the page and its total at least; nothing of another request.
      expect(recording.statements).toBeGreaterThanOrEqual(2);
      const answers = (await replay(db, recording)) as { id?: string }[][];
      const pages = answers.filter((rows) => Array.isArray(rows) && rows.length === 10);
      expect(pages.some((rows) => rows.map((r) => r.id).join() === listed.join())).toBe(true);
    } finally {
      server.close();
    }
  });
});
