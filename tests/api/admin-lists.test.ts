import { pino } from 'pino';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_RESOURCES } from '../../api/src/admin/resources';
import { MAX_PAGE_SIZE } from '../../api/src/list-query/schemas';
import { OutboxEmail } from '../support/models';
import { JOBS_SCHEMA } from '../../api/src/jobs/models';
import { jobQueue } from '../../api/src/jobs/queue';
import { EXPIRE_CHECKOUTS } from '../../api/src/jobs/recurring';
import { SECRET_PLACEHOLDER } from '../../api/src/mail/outbox';
import { createCoupon, createProduct, createPurchase, createResource, createUser } from '../../seeds/factories';
import { deliveredEmails, testApp } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { csvRecords, csvRows, listExport } from '../support/csv';
import { useTestDatabase } from '../support/db';
import { PLANTED_SECRETS, seedEverything } from '../support/everything';

describe('console lists: CSV exports, saved filters, bulk actions', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const app = () => testApp(db());
  let admin: SignedIn;
  let support: SignedIn;

  const csv = (who: SignedIn, resource: string, query: Record<string, unknown> = {}) =>
    listExport(app(), who, resource, query);

  beforeAll(async () => {
    await seedEverything(db());
    admin = await signedIn(db(), ['admin']);
    support = await signedIn(db(), ['support']);
  });

  describe('exports', () => {
    it('exports what the filtered list shows, in its order, with its row count and a dated file name', async () => {
      const filter = { roles: 'support' };
      const list = await as(
        support,
        request(app())
          .get('/api/admin/users')
          .query({ filter: JSON.stringify(filter), sort: JSON.stringify(['email', 'ASC']), range: '[0,499]' }),
      );
      expect(list.status).toBe(200);
      const exported = await csv(support, 'users', { filter, sort: ['email', 'ASC'] });
      expect(exported.status).toBe(200);
      expect(exported.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(exported.headers['content-disposition']).toMatch(/^attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"$/);
      const rows = csvRows(exported.body as string);
      expect(Number(exported.headers['x-total-rows'])).toBe(rows.length);
      expect(rows.map((r) => r.Email)).toEqual(list.body.map((u: { email: string }) => u.email));
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.Roles!.includes('support'))).toBe(true);
    });

    it('neutralises a cell a spreadsheet would run as a formula, and keeps numbers as numbers', async () => {
      const evil = await createUser(db(), {
        name: '=HYPERLINK("http://evil.example","click")',
        email: 'formula@example.com',
      });
      const exported = await csv(support, 'users', { filter: { q: 'formula@example.com' } });
      expect(exported.status).toBe(200);
      const [row] = csvRows(exported.body as string);
      expect(row).toMatchObject({ 'Person id': evil.id, Name: `'=HYPERLINK("http://evil.example","click")` });

      const coupon = await createCoupon(db(), { code: 'NUMBERS', percentageDiscount: 0.25, maxUses: 3 });
      const coupons = csvRows((await csv(support, 'coupons', { filter: { q: 'NUMBERS' } })).body as string);
      expect(coupons).toEqual([
        expect.objectContaining({ 'Coupon id': coupon.id, Discount: '25%', 'Uses allowed': '3' }),
      ]);
    });

    it('answers 400 for a filter or a sort the list refuses, before any CSV', async () => {
      const unknown = await csv(support, 'users', { filter: { password: 'x' } });
      expect(unknown.status).toBe(400);
      expect(unknown.headers['content-type']).toMatch(/json/);
      expect(JSON.parse(unknown.body as string).errors).toHaveProperty('filter');
      expect((await csv(support, 'users', { sort: ['name; DROP', 'ASC'] })).status).toBe(400);
      expect((await csv(support, 'coupons', { filter: { percentageDiscount_gte: 'lots' } })).status).toBe(400);
    });

    it('gives a contributor no more than their list: no others’ drafts, no others’ lesson bodies', async () => {
      const contributor = await signedIn(db(), ['contributor']);
      const other = await createUser(db(), { roles: ['contributor'] });
      const mine = await createResource(
        db(),
        'lesson',
        { title: 'Mine draft', slug: 'mine-draft', state: 'draft', body: 'my body' },
        contributor.user.id,
      );
      await createResource(
        db(),
        'lesson',
        { title: 'Their draft', slug: 'their-draft', state: 'draft', body: 'x' },
        other.id,
      );
      const theirs = await createResource(
        db(),
        'lesson',
        { title: 'Their published', slug: 'their-published', state: 'published', body: 'their secret body' },
        other.id,
      );
      const exported = await csv(contributor, 'content-resources', { filter: { type: 'lesson' } });
      expect(exported.status).toBe(200);
      const rows = csvRows(exported.body as string);
      const ids = rows.map((r) => r['Content id']);
      expect(ids).toContain(mine.id);
      expect(ids).toContain(theirs.id);
      expect(rows.some((r) => r.Title === 'Their draft')).toBe(false);
      expect(exported.body as string).not.toContain('their secret body');
      expect(rows.find((r) => r['Content id'] === mine.id)).toMatchObject({ Title: 'Mine draft', State: 'draft' });

      const list = await as(
        contributor,
        request(app())
          .get('/api/admin/content-resources')
          .query({ filter: JSON.stringify({ type: 'lesson' }), range: `[0,${MAX_PAGE_SIZE - 1}]` }),
      );
      expect(ids.sort()).toEqual(list.body.map((r: { id: string }) => r.id).sort());
      // A list the contributor may not read is not exported to them either.
      expect((await csv(contributor, 'users')).status).toBe(403);
    });

    it('exports the video list too, which its own routes serve, through the same list code', async () => {
      const contributor = await signedIn(db(), ['contributor']);
      const exported = await csv(contributor, 'videos', { filter: { status: 'failed' }, sort: ['updatedAt', 'ASC'] });
      expect(exported.status).toBe(200);
      expect(exported.headers['content-disposition']).toMatch(/filename="videos-\d{4}-\d{2}-\d{2}\.csv"/);
      const [head, ...rows] = csvRecords(exported.body as string);
      expect(head).toEqual(expect.arrayContaining(['Lesson', 'Status', 'Duration (s)', 'Captions', 'Video id']));
      expect(rows).toHaveLength(Number(exported.headers['x-total-rows']));
      expect((await csv(contributor, 'videos', { filter: { secret: 1 } })).status).toBe(400);
      const saved = await as(contributor, request(app()).post('/api/admin/saved-filters')).send({
        resource: 'videos',
        name: 'Failed videos',
        filter: { status: 'failed' },
      });
      expect(saved.status).toBe(201);
    });

    it('never exports a secret: no planted secret in any list, and no secret column', async () => {
      for (const resource of ADMIN_RESOURCES) {
        const exported = await csv(admin, resource.name);
        expect(exported.status, resource.name).toBe(200);
        const text = exported.body as string;
        for (const secret of PLANTED_SECRETS) expect(text, `${resource.name} holds ${secret}`).not.toContain(secret);
      }
      // A list whose base query adds fields exports them too: what a purchase's charge has refunded, a team's seats.
      const purchases = await csv(admin, 'purchases', { filter: { refundedAmount_gte: 1 } });
      const list = await as(
        admin,
        request(app())
          .get('/api/admin/purchases')
          .query({ filter: JSON.stringify({ refundedAmount_gte: 1 }), range: '[0,0]' }),
      );
      expect(list.body[0].refundedAmount).toBe(900);
      expect(csvRows(purchases.body as string)[0]).toMatchObject({ 'Purchase id': list.body[0].id, Refunded: '9.00' });
      const [teamHead] = csvRecords((await csv(admin, 'bulk-purchases')).body as string);
      expect(teamHead).toEqual(expect.arrayContaining(['Seats', 'Seats used', 'Seats free']));
      const [sessionHead] = csvRecords((await csv(support, 'sessions')).body as string);
      expect(sessionHead).not.toContain('sessionToken');
      const [accountHead] = csvRecords((await csv(support, 'accounts')).body as string);
      expect(accountHead).not.toContain('accessToken');
    });
  });

  describe('saved filters', () => {
    it('are their owner’s alone, are checked as the list checks them, and narrow the list when applied', async () => {
      await createCoupon(db(), { code: 'SAVEDA', status: 'inactive' });
      const save = (who: SignedIn, body: object) => as(who, request(app()).post('/api/admin/saved-filters')).send(body);
      const created = await save(support, {
        resource: 'coupons',
        name: 'Inactive',
        filter: { status: 'inactive' },
        sort: { field: 'code', order: 'ASC' },
      });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({ name: 'Inactive', filter: { status: 'inactive' } });
      const id = created.body.data.id as string;

      // The same name twice on one list, a filter the list refuses, a list that does not exist.
      expect((await save(support, { resource: 'coupons', name: 'Inactive', filter: {} })).status).toBe(409);
      const refused = await save(support, { resource: 'coupons', name: 'Bad', filter: { secret: 1 } });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toHaveProperty('filter');
      expect((await save(support, { resource: 'nothing', name: 'X', filter: {} })).status).toBe(400);

      const mine = await as(support, request(app()).get('/api/admin/saved-filters').query({ resource: 'coupons' }));
      expect(mine.body.data.map((f: { id: string }) => f.id)).toEqual([id]);

      // Another staff member sees none of them and cannot delete them.
      const colleague = await signedIn(db(), ['support']);
      const theirs = await as(colleague, request(app()).get('/api/admin/saved-filters').query({ resource: 'coupons' }));
      expect(theirs.body.data).toEqual([]);
      expect((await as(colleague, request(app()).delete(`/api/admin/saved-filters/${id}`))).status).toBe(404);

      // Applied: the list with the saved filter is narrower, and only inactive coupons.
      const saved = mine.body.data[0] as { filter: object; sort: { field: string; order: string } };
      const all = await as(support, request(app()).get('/api/admin/coupons').query({ range: '[0,499]' }));
      const narrowed = await as(
        support,
        request(app())
          .get('/api/admin/coupons')
          .query({
            filter: JSON.stringify(saved.filter),
            sort: JSON.stringify([saved.sort.field, saved.sort.order]),
            range: '[0,499]',
          }),
      );
      expect(narrowed.body.length).toBeGreaterThan(0);
      expect(narrowed.body.length).toBeLessThan(all.body.length);
      expect(narrowed.body.every((c: { status: string }) => c.status === 'inactive')).toBe(true);

      expect((await as(support, request(app()).delete(`/api/admin/saved-filters/${id}`))).status).toBe(200);
      expect(await db()('savedFilters').where({ id })).toEqual([]);
    });
  });

  describe('bulk actions', () => {
    it('deactivates coupons in one call, one audit entry each, saying which were skipped and why', async () => {
      const a = await createCoupon(db(), { code: 'BULKA' });
      const b = await createCoupon(db(), { code: 'BULKB' });
      const inactive = await createCoupon(db(), { code: 'BULKC', status: 'inactive' });
      const missing = '00000000-0000-4000-8000-000000000000';
      const finance = await signedIn(db(), ['finance']);
      const deactivate = (who: SignedIn, ids: unknown) =>
        as(who, request(app()).post('/api/admin/coupons/deactivate')).send({ ids });

      expect((await deactivate(finance, [a.id])).status).toBe(403);
      const answer = await deactivate(support, [a.id, b.id, inactive.id, missing, a.id]);
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual({
        done: 2,
        doneIds: [a.id, b.id],
        skipped: [
          { id: inactive.id, reason: 'already-inactive', message: expect.any(String) },
          { id: missing, reason: 'not-found', message: expect.any(String) },
        ],
      });
      const statuses = await db()('coupons').whereIn('id', [a.id, b.id]).pluck('status');
      expect(statuses).toEqual(['inactive', 'inactive']);
      const audit = await db()('auditLogs')
        .where({ resource: 'coupons', action: 'update' })
        .whereIn('recordId', [a.id, b.id]);
      expect(audit).toHaveLength(2);
      expect(audit[0]).toMatchObject({
        actorEmail: support.user.email,
        before: expect.objectContaining({ status: 'active' }),
      });

      expect((await deactivate(support, [])).status).toBe(400);
      const tooMany = Array.from(
        { length: MAX_PAGE_SIZE + 1 },
        (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      );
      expect((await deactivate(support, tooMany)).status).toBe(400);
      expect((await deactivate(support, ['not-an-id'])).status).toBe(400);
    });

    it('leaves a team’s seat coupon active, in bulk and on its own, saying why, so its invite link keeps working', async () => {
      const product = await createProduct(db(), { name: 'Team Bulk Course' });
      const team = await createPurchase(db(), { user: await createUser(db()), product, totalAmount: 19_600 });
      const seats = await createCoupon(db(), {
        code: null,
        percentageDiscount: 1,
        maxUses: 4,
        restrictedToProductId: product.id,
        bulkPurchaseId: team.id,
      });
      await db()('purchases').where({ id: team.id }).update({ bulkCouponId: seats.id });
      const plain = await createCoupon(db(), { code: 'BULKPLAIN' });

      const answer = await as(support, request(app()).post('/api/admin/coupons/deactivate')).send({
        ids: [seats.id, plain.id],
      });
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual({
        done: 1,
        doneIds: [plain.id],
        skipped: [{ id: seats.id, reason: 'coupon-is-team-seats', message: expect.stringMatching(/invite link/) }],
      });

      // Its own edit refuses too, on the field, and writes nothing.
      const edit = await as(support, request(app()).put(`/api/admin/coupons/${seats.id}`)).send({ status: 'inactive' });
      expect(edit.status).toBe(409);
      expect(edit.body).toMatchObject({ code: 'coupon-is-team-seats', errors: { status: expect.any(String) } });
      expect(await db()('coupons').where({ id: seats.id }).first('status')).toEqual({ status: 'active' });
      expect(await db()('auditLogs').where({ resource: 'coupons', recordId: seats.id })).toEqual([]);
    });

    it('resends failed and sent emails, not one waiting, one without a body, nor a sent one-time link', async () => {
      const email = (status: string, textBody: string | null) =>
        OutboxEmail.query(db()).insertAndFetch({
          toAddress: 'resend@example.com',
          subject: `Email ${status}`,
          textBody,
          kind: 'receipt',
          status,
          attempts: status === 'pending' ? 0 : 3,
          sentAt: status === 'sent' ? new Date() : null,
        } as never);
      const failed = await email('failed', 'Hello');
      const sent = await email('sent', 'Your receipt');
      const pending = await email('pending', 'Waiting');
      const dropped = await email('sent', null);
      const link = await email('sent', `Sign in: https://x.example/?token=${SECRET_PLACEHOLDER}`);
      const resend = (who: SignedIn, ids: string[]) =>
        as(who, request(app()).post('/api/admin/outbox-emails/resend')).send({ ids });

      // Support works the outbox; finance does not.
      const finance = await signedIn(db(), ['finance']);
      expect((await resend(finance, [failed.id])).status).toBe(403);
      const answer = await resend(support, [failed.id, sent.id, pending.id, dropped.id, link.id]);
      expect(answer.status).toBe(200);
      expect(answer.body.data.done).toBe(2);
      expect(answer.body.data.doneIds).toEqual([failed.id, sent.id]);
      expect(answer.body.data.skipped.map((s: { reason: string }) => s.reason)).toEqual([
        'not-failed-or-sent',
        'body-dropped',
        'one-time-link',
      ]);
      // The failed one is queued again, its attempts counted afresh, and goes out (the resend woke the delivery); the
      // sent one stays sent, and a copy naming it goes out.
      await expect
        .poll(() => db()('outboxEmails').where({ id: failed.id }).first('status', 'attempts'))
        .toEqual({ status: 'sent', attempts: 1 });
      expect(deliveredEmails.get(failed.id)?.subject).toBe('Email failed');
      expect(await db()('outboxEmails').where({ id: sent.id }).first()).toMatchObject({ status: 'sent' });
      const [copy] = await db()('outboxEmails').where({ resentFromId: sent.id });
      expect(copy).toMatchObject({ toAddress: 'resend@example.com', subject: 'Email sent', textBody: 'Your receipt' });
      const audit = await db()('auditLogs')
        .where({ resource: 'outbox-emails' })
        .whereIn('recordId', [failed.id, sent.id]);
      expect(audit.map((e) => [e.recordId, e.action]).sort()).toEqual(
        [
          [failed.id, 'retry'],
          [sent.id, 'resend'],
        ].sort(),
      );
      expect(audit.find((e) => e.action === 'resend').after).toEqual({
        copyId: copy.id,
        toAddress: 'resend@example.com',
      });
      expect(await db()('outboxEmails').where({ id: link.id }).first()).toMatchObject({ status: 'sent' });
      expect(await db()('outboxEmails').where({ resentFromId: link.id })).toEqual([]);
    });

    it('retries failed jobs only', async () => {
      const queue = jobQueue({ db: db(), logger: pino({ level: 'silent' }) });
      queue.define({
        name: EXPIRE_CHECKOUTS,
        retryLimit: 0,
        retryDelaySeconds: 1,
        expireInSeconds: 60,
        run: async () => {},
      });
      const failedId = await queue.add(db(), EXPIRE_CHECKOUTS, {});
      const waitingId = await queue.add(db(), EXPIRE_CHECKOUTS, { other: true });
      await db().raw(`UPDATE ${JOBS_SCHEMA}.job SET state = 'failed' WHERE id = ?`, [failedId]);
      const answer = await as(admin, request(app()).post('/api/admin/jobs/retry')).send({ ids: [failedId, waitingId] });
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({
        done: 1,
        doneIds: [failedId],
        skipped: [{ id: waitingId, reason: 'not-failed' }],
      });
      const audit = await db()('auditLogs').where({ resource: 'jobs', recordId: failedId });
      expect(audit).toEqual([expect.objectContaining({ action: 'retry', actorEmail: admin.user.email })]);
      expect((await as(support, request(app()).post('/api/admin/jobs/retry')).send({ ids: [failedId] })).status).toBe(
        403,
      );
    });
  });
});
