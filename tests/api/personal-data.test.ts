import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createApp } from '../../api/src/app';
import { DELETE_IMAGE_JOB } from '../../api/src/admin/images/image-admin';
import { originalKey } from '../../api/src/media/images';
import { REMOVED_COMMENT_TEXT } from '../../api/src/privacy/erase-person';
import { createServices, type Services } from '../../api/src/services';
import { createCoupon, createCourse, createProduct, createRevenueSplit } from '../../seeds/factories';
import { deliveredEmails, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { boughtWithTestProvider, sessionOfCheckout } from '../support/checkout';
import { changedKeys, expectCommerceInvariants, rowDigests } from '../support/commerce-invariants';
import { useTestDatabase } from '../support/db';
import type { Product } from '../support/models';
import { jobsSettled } from '../support/jobs';
import { SEND_EMAIL } from '../../api/src/mail/outbox';

/** What a person's data holds, and deleting their account (docs/domain.md §16). */
describe('personal data: export and account deletion', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;

  const store = (who: SignedIn | undefined, method: 'get' | 'post' | 'put' | 'delete', path: string, body?: object) =>
    as(who, request(app)[method](`/api/store${path}`)).send(body);
  const admin = (who: SignedIn, method: 'get' | 'post', path: string, body?: object) =>
    as(who, request(app)[method](`/api/admin${path}`)).send(body);
  const lessonOf = (course: { course: { fields: { slug?: string } } }, lesson: { id: string }) =>
    `/courses/${course.course.fields.slug}/lessons/${lesson.id}`;

  // The world: `person` (a learner, and an owner in the course's revenue split) holds a seat in `owner`'s team,
  // bought a team of the workshop (with `member` seated), bought the guide with a limited coupon and offered it to a
  // friend, was offered `giver`'s guide, commented (answered by `colleague`), bookmarked, progressed and got emails.
  let course: Product;
  let workshop: Product;
  let guide: Product;
  let book: Product;
  let courseTree: Awaited<ReturnType<typeof createCourse>>;
  let workshopTree: Awaited<ReturnType<typeof createCourse>>;
  let person: SignedIn;
  let owner: SignedIn;
  let colleague: SignedIn;
  let member: SignedIn;
  let giver: SignedIn;
  let buyer: SignedIn;
  let support: SignedIn;
  let ownerTeamId: string;
  let ownerCouponId: string;
  let personSeatId: string;
  let personTeamId: string;
  let personGuideId: string;
  let giverBookId: string;
  let couponId: string;
  const comments: Record<'kept' | 'alone' | 'reply' | 'colleagueTop' | 'colleagueReply', string> = {
    kept: '',
    alone: '',
    reply: '',
    colleagueTop: '',
    colleagueReply: '',
  };

  const inviteOf = async (teamId: string) => {
    const team = await db()('purchases').where({ id: teamId }).first('bulkCouponId');
    return (await db()('coupons').where({ id: team.bulkCouponId }).first()) as {
      id: string;
      inviteCode: string;
      usedCount: number;
      maxUses: number;
    };
  };

  beforeAll(async () => {
    const deps = testDeps(db());
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    course = await createProduct(db(), { name: 'Deep Course', unitAmount: 10_000 });
    workshop = await createProduct(db(), { name: 'Team Workshop', unitAmount: 5_000 });
    guide = await createProduct(db(), { name: 'Pocket Guide', unitAmount: 3_000 });
    book = await createProduct(db(), { name: 'Gift Book', unitAmount: 2_000 });
    const outline = (title: string) => ({
      title,
      modules: [
        {
          title: 'One',
          sections: [{ title: 'S', lessons: [1, 2, 3].map((n) => ({ title: `${title} L${n}`, body: `<p>${n}</p>` })) }],
        },
      ],
    });
    courseTree = await createCourse(db(), outline('Deep'), { products: [course] });
    workshopTree = await createCourse(db(), outline('Workshop'), { products: [workshop] });

    [person, owner, colleague, member, giver, buyer, support] = await Promise.all([
      signedIn(db(), ['learner'], 'Person.Deleted@Example.com'),
      signedIn(db(), ['learner'], 'team-owner@example.com'),
      signedIn(db(), ['learner'], 'colleague@example.com'),
      signedIn(db(), ['learner'], 'member@example.com'),
      signedIn(db(), ['learner'], 'giver@example.com'),
      signedIn(db(), ['learner'], 'buyer@example.com'),
      signedIn(db(), ['support'], 'support@example.com'),
    ]);
    await db()('users').where({ id: person.user.id }).update({ name: 'Pat Person', bio: 'Writes about types.' });
    await createRevenueSplit(db(), { productId: course.id, type: 'platform', percent: 0.3 });
    await createRevenueSplit(db(), { productId: course.id, type: 'owner', percent: 0.7, userId: person.user.id });

    // A seat in owner's team of two, the other taken by colleague.
    ownerTeamId = await boughtWithTestProvider(services, db(), {
      buyer: owner.user,
      productId: course.id,
      quantity: 2,
    });
    const ownerInvite = await inviteOf(ownerTeamId);
    ownerCouponId = ownerInvite.id;
    expect((await store(person, 'post', `/invites/${ownerInvite.inviteCode}/redeem`)).status).toBe(201);
    expect((await store(colleague, 'post', `/invites/${ownerInvite.inviteCode}/redeem`)).status).toBe(201);
    personSeatId = (
      await db()('purchases').where({ userId: person.user.id, redeemedBulkCouponId: ownerCouponId }).first('id')
    ).id;

    // person's own team of the workshop, member seated.
    personTeamId = await boughtWithTestProvider(services, db(), {
      buyer: person.user,
      productId: workshop.id,
      quantity: 3,
    });
    expect((await store(member, 'post', `/invites/${(await inviteOf(personTeamId)).inviteCode}/redeem`)).status).toBe(
      201,
    );

    // The guide with a limited coupon, offered to a friend; and giver's book offered to person.
    couponId = (await createCoupon(db(), { code: 'FIVEUSES', maxUses: 5, percentageDiscount: 0.2 })).id;
    const { checkoutId } = await services.checkouts.create({
      productId: guide.id,
      quantity: 1,
      team: false,
      ppp: false,
      buyer: person.user,
      country: 'US',
      ip: '203.0.113.9',
      couponCode: 'FIVEUSES',
    });
    await services.testProvider.pay(await sessionOfCheckout(db(), checkoutId));
    personGuideId = (await services.checkouts.fulfil(checkoutId)).purchaseId!;
    expect(
      (await store(person, 'post', `/purchases/${personGuideId}/transfer`, { email: 'friend@example.com' })).status,
    ).toBe(200);
    giverBookId = await boughtWithTestProvider(services, db(), { buyer: giver.user, productId: book.id });
    expect(
      (await store(giver, 'post', `/purchases/${giverBookId}/transfer`, { email: 'person.deleted@example.com' }))
        .status,
    ).toBe(200);

    // A sale that pays person as the course's owner.
    await boughtWithTestProvider(services, db(), { buyer: buyer.user, productId: course.id });

    // Learning: comments both ways, a bookmark, progress, a time zone.
    const [l1, l2] = courseTree.lessons;
    const post = async (who: SignedIn, text: string, parentId?: string) => {
      const answer = await store(who, 'post', `/lessons/${l1!.id}/comments`, { text, parentId });
      expect(answer.status).toBe(201);
      return answer.body.id as string;
    };
    comments.kept = await post(person, 'Why does the compiler widen literals here?');
    comments.colleagueReply = await post(colleague, 'Colleague answers: because of let.', comments.kept);
    comments.alone = await post(person, 'Nobody answers this one.');
    comments.colleagueTop = await post(colleague, 'Colleague asks something else.');
    comments.reply = await post(person, 'Person replies to the colleague.', comments.colleagueTop);
    expect((await store(person, 'put', `/bookmarks/${l2!.id}`, {})).status).toBeLessThan(300);
    expect((await store(person, 'put', `/progress/lessons/${l2!.id}`, {})).status).toBeLessThan(300);
    expect((await store(person, 'put', '/me/time-zone', { timeZone: 'Europe/Lisbon' })).status).toBe(200);

    // An email still waiting to go, and a waitlist place.
    await db()('outboxEmails').insert({
      toAddress: 'person.deleted@example.com',
      subject: 'Your lesson reminder',
      textBody: 'Hello Pat',
      kind: 'test-reminder',
      status: 'pending',
      nextAttemptAt: new Date(Date.now() + 3_600_000),
    });
    await db()('waitlistEntries').insert({ productId: workshop.id, email: 'person.deleted@example.com' });
  });

  it('downloads everything held about the caller, and nobody else’s data', async () => {
    const answer = await store(person, 'get', '/me/export');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['content-disposition']).toMatch(
      /^attachment; filename="[a-z0-9-]+-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(answer.headers['cache-control']).toBe('no-store');
    const data = answer.body;
    expect(data.profile).toMatchObject({
      id: person.user.id,
      email: 'Person.Deleted@Example.com',
      name: 'Pat Person',
      bio: 'Writes about types.',
      timeZone: 'Europe/Lisbon',
    });
    expect(data.purchases).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: personSeatId, product: 'Deep Course', type: 'seat', status: 'Valid', amount: 0 }),
        expect.objectContaining({ id: personTeamId, product: 'Team Workshop', type: 'team', status: 'Valid' }),
        expect.objectContaining({
          id: personGuideId,
          product: 'Pocket Guide',
          type: 'individual',
          amount: 2_400,
          currency: 'usd',
          ipAddress: '203.0.113.9',
        }),
      ]),
    );
    expect(data.purchases).toHaveLength(3);
    expect(data.teamsBought).toEqual([
      expect.objectContaining({ purchaseId: personTeamId, product: 'Team Workshop', seats: 3, seatsTaken: 1 }),
    ]);
    expect(data.teamSeats).toEqual([expect.objectContaining({ purchaseId: personSeatId, product: 'Deep Course' })]);
    expect(data.transfers.map((t: { direction: string; state: string }) => [t.direction, t.state]).sort()).toEqual([
      ['in', 'INITIATED'],
      ['out', 'INITIATED'],
    ]);
    expect(data.progress).toEqual([
      expect.objectContaining({ lessonId: courseTree.lessons[1]!.id, lesson: 'Deep L2' }),
    ]);
    expect(data.bookmarks).toEqual([expect.objectContaining({ resourceId: courseTree.lessons[1]!.id })]);
    expect(data.comments.map((c: { id: string }) => c.id).sort()).toEqual(
      [comments.kept, comments.alone, comments.reply].sort(),
    );
    expect(data.emails).toEqual(
      expect.arrayContaining([expect.objectContaining({ subject: 'Your lesson reminder', status: 'pending' })]),
    );
    expect(data.emails.length).toBeGreaterThan(1); // receipts and the transfer offer from giver too
    expect(data.waitlists).toEqual([expect.objectContaining({ product: 'Team Workshop' })]);
    expect(data.sessions).toHaveLength(1);
    // Nobody else: not the people they share a team, a transfer or a thread with, nor what those people wrote.
    const text = JSON.stringify(data);
    for (const other of [owner, colleague, member, giver, buyer, support]) {
      expect(text).not.toContain(other.user.email);
      expect(text).not.toContain(other.user.id);
    }
    expect(text).not.toContain('friend@example.com');
    expect(text).not.toContain('Colleague answers');
    expect(text).not.toContain('Colleague asks');
  });

  const TABLES = ['users', 'purchases', 'coupons', 'purchase_user_transfers', 'comments', 'sessions', 'outbox_emails'];
  const snapshot = async () => Promise.all(TABLES.map((table) => rowDigests(db(), table)));

  it('refuses a missing or wrong confirmation, changing nothing', async () => {
    // The earlier tests' emails go out after their commits: the snapshot is taken once they have.
    await jobsSettled(db(), SEND_EMAIL);
    const before = await snapshot();
    for (const body of [{}, { confirm: '' }, { confirm: 'someone@example.com' }, { confirm: 'person.deleted' }]) {
      const answer = await store(person, 'delete', '/me', body);
      expect(answer.status).toBe(422);
      expect(answer.body).toMatchObject({ code: 'confirmation-mismatch', errors: { confirm: expect.any(String) } });
    }
    expect(await snapshot()).toEqual(before);
    expect((await store(person, 'get', '/me')).status).toBe(200);
  });

  it('refuses staff accounts, the last administrator among them', async () => {
    const onlyAdmin = await signedIn(db(), ['admin'], 'only-admin@example.com');
    const own = await store(onlyAdmin, 'delete', '/me', { confirm: 'only-admin@example.com' });
    expect(own.status).toBe(409);
    expect(own.body.code).toBe('account-is-staff');
    const bySupport = await admin(support, 'post', `/users/${onlyAdmin.user.id}/delete-account`, {
      confirm: 'only-admin@example.com',
    });
    expect(bySupport.body.code).toBe('account-is-staff');
    expect((await db()('users').where({ id: onlyAdmin.user.id }).first()).deletedAt).toBeNull();
  });

  it('deletes the account: signed out, erased, and every rule of commerce still holds', async () => {
    await expectCommerceInvariants(db());
    const purchaseColumns = ['id', 'user_id', 'product_id', 'status', 'total_amount', 'currency', 'merchant_charge_id'];
    const purchasesBefore = await rowDigests(db(), 'purchases', purchaseColumns);
    const couponsBefore = await rowDigests(db(), 'coupons', ['id', 'max_uses', 'used_count', 'status']);
    const chargesBefore = await rowDigests(db(), 'merchant_charges');
    const linesBefore = await rowDigests(db(), 'split_lines');
    const personLines = await db()('splitLines').where({ userId: person.user.id }).sum({ total: 'amount' });
    expect(Number(personLines[0]!.total)).toBeGreaterThan(0);

    const answer = await store(person, 'delete', '/me', { confirm: '  PERSON.deleted@example.COM ' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(204);
    expect(String(answer.headers['set-cookie'])).toMatch(/lp_session=;/);
    // The session ended: the old cookie is nobody.
    expect((await store(person, 'get', '/me')).status).toBe(401);
    expect(await db()('sessions').where({ userId: person.user.id })).toEqual([]);

    // The row stays for finance, erased.
    const row = await db()('users').where({ id: person.user.id }).first();
    expect(row).toMatchObject({
      email: `deleted-${person.user.id}@invalid`,
      name: null,
      bio: null,
      avatarKey: null,
      roles: ['learner'],
    });
    expect(row.deletedAt).toBeInstanceOf(Date);

    // Commerce: only the seat changed (freed), only the owner's team coupon counts one fewer; charges and the
    // ledger untouched, person's earnings as the course's owner still in it.
    expect(changedKeys(purchasesBefore, await rowDigests(db(), 'purchases', purchaseColumns))).toEqual([personSeatId]);
    expect(await db()('purchases').where({ id: personSeatId }).first('status', 'statusReason')).toEqual({
      status: 'Revoked',
      statusReason: 'The member deleted their account.',
    });
    expect(
      changedKeys(couponsBefore, await rowDigests(db(), 'coupons', ['id', 'max_uses', 'used_count', 'status'])),
    ).toEqual([ownerCouponId]);
    expect(await inviteOf(ownerTeamId)).toMatchObject({ usedCount: 1, maxUses: 2 });
    expect((await db()('coupons').where({ id: couponId }).first()).usedCount).toBe(1);
    expect(changedKeys(chargesBefore, await rowDigests(db(), 'merchant_charges'))).toEqual([]);
    // The provider's customer no longer carries their address (the built-in provider's copy is its sessions').
    expect(
      await db()('testProviderSessions')
        .whereRaw(`lower(customer_email) = 'person.deleted@example.com'`)
        .whereNotNull('customerIdentifier'),
    ).toEqual([]);
    expect(changedKeys(linesBefore, await rowDigests(db(), 'split_lines'))).toEqual([]);
    expect(await db()('splitLines').where({ userId: person.user.id }).sum({ total: 'amount' })).toEqual(personLines);
    await expectCommerceInvariants(db());

    // Transfers: person's offer ended; the offer made to them ended and its owner may offer again.
    const transfers = await db()('purchaseUserTransfers')
      .whereIn('purchaseId', [personGuideId, giverBookId])
      .orderBy('createdAt')
      .select('purchaseId', 'transferState');
    expect(transfers.filter((t) => t.purchaseId === personGuideId).map((t) => t.transferState)).toEqual(['CANCELED']);
    expect(transfers.filter((t) => t.purchaseId === giverBookId).map((t) => t.transferState)).toEqual([
      'CANCELED',
      'AVAILABLE',
    ]);
    const again = await store(giver, 'post', `/purchases/${giverBookId}/transfer`, { email: 'next@example.com' });
    expect(again.status).toBe(200);

    // The teams keep working: person's team for its member, the freed seat for someone new.
    const memberLesson = await store(member, 'get', lessonOf(workshopTree, workshopTree.lessons[1]!));
    expect(memberLesson.body.open).toBe(true);
    const colleagueLesson = await store(colleague, 'get', lessonOf(courseTree, courseTree.lessons[1]!));
    expect(colleagueLesson.body.open).toBe(true);
    const newcomer = await signedIn(db());
    const { inviteCode } = await inviteOf(ownerTeamId);
    expect((await store(newcomer, 'post', `/invites/${inviteCode}/redeem`)).status).toBe(201);
    expect(await inviteOf(ownerTeamId)).toMatchObject({ usedCount: 2, maxUses: 2 });
    await expectCommerceInvariants(db());

    // Learning: the thread still reads; what was only theirs is gone.
    const thread = await db()('comments').whereIn('id', Object.values(comments)).select('id', 'text', 'userId');
    expect(thread.map((c) => c.id).sort()).toEqual(
      [comments.kept, comments.colleagueReply, comments.colleagueTop].sort(),
    );
    expect(thread.find((c) => c.id === comments.kept)!.text).toBe(REMOVED_COMMENT_TEXT);
    for (const table of ['bookmarks', 'lessonProgress', 'userPrefs', 'signIns', 'accounts'])
      expect(await db()(table).where({ userId: person.user.id }), table).toEqual([]);

    // Emails: nothing left addressed to them, the waiting one canceled; the waitlist place gone.
    expect(await db()('outboxEmails').whereRaw(`lower(to_address) = 'person.deleted@example.com'`)).toEqual([]);
    expect(
      await db()('outboxEmails').where({ subject: 'Your lesson reminder' }).first('status', 'textBody', 'toAddress'),
    ).toEqual({ status: 'failed', textBody: null, toAddress: `deleted-${person.user.id}@invalid` });
    expect(await db()('waitlistEntries').where({ email: 'person.deleted@example.com' })).toEqual([]);
    // An email written later to the account (a reply to its comment, a refund settling) is never sent.
    const lateId = await services.outbox.enqueue(db(), {
      to: `deleted-${person.user.id}@invalid`,
      subject: 'Someone replied to your comment',
      text: 'Colleague wrote back.',
      kind: 'comment-reply',
    });
    await services.outbox.flush();
    expect(await db()('outboxEmails').where({ id: lateId }).first('status', 'textBody', 'sentAt')).toEqual({
      status: 'failed',
      textBody: null,
      sentAt: null,
    });
    expect(deliveredEmails.has(lateId)).toBe(false);

    // Audited, without their personal data.
    const audit = await db()('auditLogs').where({ action: 'user.deleted', recordId: person.user.id });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: person.user.id, actorEmail: null });
    expect(JSON.stringify(audit[0])).not.toMatch(/person\.deleted|Pat Person/i);

    // Their data is no longer there to download; the old email signs in to a fresh, empty account.
    expect((await admin(support, 'get', `/users/${person.user.id}/personal-data`)).status).toBe(410);
    const link = new URL(await services.emailSignIn.createLink('person.deleted@example.com'));
    const fresh = await request(app)
      .post('/api/store/auth/email/consume')
      .send({ email: link.searchParams.get('email'), token: link.searchParams.get('token') });
    expect(fresh.status).toBe(200);
    expect(fresh.body.user.id).not.toBe(person.user.id);
    expect(await db()('purchases').where({ userId: fresh.body.user.id })).toEqual([]);
  });

  it('refunds in full a payment that completes after the account was deleted, and writes it to nobody', async () => {
    const leaving = await signedIn(db(), ['learner'], 'paying.late@example.com');
    const started = await request(app)
      .post('/api/store/checkout')
      .send({ productId: book.id, email: 'paying.late@example.com' });
    expect(started.status).toBe(201);
    // Deleted while paying at the provider.
    expect((await store(leaving, 'delete', '/me', { confirm: 'paying.late@example.com' })).status).toBe(204);
    expect((await request(app).post(`${new URL(started.body.url).pathname}/pay`)).status).toBe(303);
    const outcome = await request(app).get(`/api/store/checkouts/${started.body.checkoutId}`);
    expect(outcome.body.status).toBe('refunded');
    const purchase = await db()('purchases').where({ id: outcome.body.purchaseId }).first();
    expect(purchase).toMatchObject({ userId: leaving.user.id, status: 'Refunded' });
    const charge = await db()('merchantCharges').where({ id: purchase.merchantChargeId }).first();
    expect(charge.refundAmount).toBe(charge.amount);
    expect(await db()('outboxEmails').whereRaw(`lower(to_address) = 'paying.late@example.com'`)).toEqual([]);
    const apology = await db()('outboxEmails').where({
      kind: 'unfulfillable-refund',
      toAddress: `deleted-${leaving.user.id}@invalid`,
    });
    expect(apology).toEqual([expect.objectContaining({ status: 'failed', textBody: null })]);
    await expectCommerceInvariants(db());
  });

  it('frees a seat once when its owner revokes it while its member deletes their account', async () => {
    for (let round = 0; round < 4; round++) {
      const teamOwner = await signedIn(db());
      const teamId = await boughtWithTestProvider(services, db(), {
        buyer: teamOwner.user,
        productId: course.id,
        quantity: 2,
      });
      const { inviteCode, id: teamCoupon } = await inviteOf(teamId);
      const [leaving, staying] = [await signedIn(db()), await signedIn(db())];
      for (const who of [leaving, staying])
        expect((await store(who, 'post', `/invites/${inviteCode}/redeem`)).status).toBe(201);
      const seat = await db()('purchases').where({ userId: leaving.user.id, redeemedBulkCouponId: teamCoupon }).first();
      const [deleted, revoked] = await Promise.all([
        store(leaving, 'delete', '/me', { confirm: leaving.user.email }),
        store(teamOwner, 'delete', `/teams/${teamId}/members/${seat.id}`),
      ]);
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
      expect([200, 404], JSON.stringify(revoked.body)).toContain(revoked.status); // first, or after the deletion freed it
      expect(await db()('purchases').where({ id: seat.id }).first('status')).toEqual({ status: 'Revoked' });
      expect(await inviteOf(teamId)).toMatchObject({ usedCount: 1, maxUses: 2 });
      await expectCommerceInvariants(db());
    }
  });

  it('removes the person’s picture from the media storage once nothing shows it', async () => {
    const leaving = await signedIn(db(), ['learner'], 'pictured@example.com');
    const adminUser = await signedIn(db(), ['admin']);
    const bytes = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#3366aa' } })
      .jpeg()
      .toBuffer();
    const set = await as(adminUser, request(app).put(`/api/admin/users/${leaving.user.id}/avatar`)).attach(
      'file',
      bytes,
      { filename: 'me.jpg', contentType: 'image/jpeg' },
    );
    expect(set.status).toBe(200);
    const key: string = set.body.avatarKey;
    expect(await services.storage.exists(originalKey(key))).toBe(true);
    expect((await store(leaving, 'get', '/me/export')).body.profile.avatarUrl).toBe(`/media/images/${key}?w=160`);

    expect((await store(leaving, 'delete', '/me', { confirm: 'pictured@example.com' })).status).toBe(204);
    expect((await db()('users').where({ id: leaving.user.id }).first()).avatarKey).toBeNull();
    await services.jobs.runDue(DELETE_IMAGE_JOB);
    expect(await services.storage.exists(originalKey(key))).toBe(false);
  });

  it('lets support download and delete from the console, audited; learners and finance cannot', async () => {
    const learner = await signedIn(db(), ['learner'], 'console-case@example.com');
    const finance = await signedIn(db(), ['finance']);
    const path = `/users/${learner.user.id}`;
    expect((await admin(learner, 'get', `${path}/personal-data`)).status).toBe(403);
    expect((await admin(finance, 'get', `${path}/personal-data`)).status).toBe(403);
    expect(
      (await admin(finance, 'post', `${path}/delete-account`, { confirm: 'console-case@example.com' })).status,
    ).toBe(403);
    expect((await request(app).post(`/api/admin${path}/delete-account`).send({})).status).toBe(401);

    const download = await admin(support, 'get', `${path}/personal-data`);
    expect(download.status).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/attachment; filename=".+-data-.+\.json"/);
    expect(download.body.profile.email).toBe('console-case@example.com');
    expect(await db()('auditLogs').where({ action: 'user.data-exported', recordId: learner.user.id })).toEqual([
      expect.objectContaining({ actorId: support.user.id }),
    ]);

    expect((await admin(support, 'post', `${path}/delete-account`, { confirm: 'wrong@example.com' })).body.code).toBe(
      'confirmation-mismatch',
    );
    const deleted = await admin(support, 'post', `${path}/delete-account`, { confirm: 'Console-Case@example.com' });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id: learner.user.id, sessionsEnded: 1 });
    expect((await store(learner, 'get', '/me')).status).toBe(401);
    const [entry] = await db()('auditLogs').where({ action: 'user.deleted', recordId: learner.user.id });
    expect(entry).toMatchObject({ actorId: support.user.id, actorEmail: 'support@example.com' });
    expect(JSON.stringify(entry)).not.toContain('console-case');
    const twice = await admin(support, 'post', `${path}/delete-account`, { confirm: 'console-case@example.com' });
    expect(twice.body.code).toBe('account-deleted');
  });
});
