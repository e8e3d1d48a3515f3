import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { createLogger } from '../../api/src/logger';
import { createTransport } from '../../api/src/mail/transport';
import { createServices, type Services } from '../../api/src/services';
import { defaultName } from '../../api/src/shared/shown-name';
import { createCourse, createProduct, createPurchase } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { passTime } from '../support/jobs';
import { CommentReplyEmail, OutboxEmail, type Product } from '../support/models';
import { decodedMessage, useSmtp } from '../support/smtp-stand-in';

const COURSE = 'Sourdough Basics';
const LESSON = 'Feeding the starter';
/** REPLY_EMAIL_DELAY_SECONDS as a server runs with it. */
const DELAY = 600;

describe('a reply to a learner’s comment is emailed to them, once, unless they turned it off (docs/domain.md §11)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const smtp = useSmtp();
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let services: Services;
  let lessonId: string;
  let courseSlug: string;
  let product: Product;
  let lessonSlug: string;
  let asker: SignedIn;
  let answerer: SignedIn;
  let moderator: SignedIn;

  beforeAll(async () => {
    const config = testConfig({ PUBLIC_URL: 'https://school.example', COMMENTS_PER_MINUTE: '100' });
    const deps = testDeps(db(), { config });
    deps.mailTransport = createTransport({ SMTP_URL: smtp().url, MAIL_FROM: config.MAIL_FROM }, createLogger('silent'));
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    product = await createProduct(db(), { name: COURSE });
    const { course, lessons } = await createCourse(
      db(),
      {
        title: COURSE,
        modules: [{ title: 'M', sections: [{ title: 'S', lessons: [{ title: LESSON, body: '<p>x</p>' }] }] }],
      },
      { products: [product] },
    );
    lessonId = lessons[0]!.id;
    courseSlug = course.fields.slug!;
    lessonSlug = lessons[0]!.fields.slug!;
    asker = await signedIn(db(), ['learner'], 'asker@example.com');
    answerer = await signedIn(db(), ['learner'], 'answerer@example.com');
    moderator = await signedIn(db(), ['support']);
    await db()('users').where({ id: answerer.user.id }).update({ name: null }); // shown as "Learner 4F2A"
    for (const who of [asker, answerer]) await createPurchase(db(), { user: who.user, product });
  });

  const post = async (who: SignedIn, text: string, parentId?: string): Promise<string> => {
    const posted = await as(who, request(app).post(`/api/store/lessons/${lessonId}/comments`)).send({
      text,
      ...(parentId && { parentId }),
    });
    expect(posted.status).toBe(201);
    return posted.body.id;
  };
  const replyEmailsTo = (to: string) => OutboxEmail.query(db()).where({ toAddress: to, kind: 'comment-reply' });
  /** As if the wait passed: the due reply emails are decided, and what they queue is sent. */
  async function afterTheWait(): Promise<void> {
    await passTime(db(), DELAY);
    await services.replyEmails.runDue();
    await services.outbox.flush();
  }
  const setReplyEmails = (who: SignedIn, replies: boolean) =>
    as(who, request(app).put('/api/store/prefs')).send({ type: 'global', fields: { emails: { replies } } });

  it('emails the comment’s author once, after the wait, with the reply, the lesson and a link to the reply', async () => {
    const question = await post(asker, 'How often should I feed the starter when it lives in the fridge?');
    const replyText = `Once a week is plenty.   Take it out, discard half, feed it equal weights of flour and water. ${'More detail. '.repeat(60)}`;
    const reply = await post(answerer, replyText, question);

    // Not yet: the reply's author may still fix or delete it, a moderator hide it.
    await services.replyEmails.runDue();
    expect(await replyEmailsTo('asker@example.com')).toHaveLength(0);

    await afterTheWait();
    const [email, ...more] = await replyEmailsTo('asker@example.com');
    expect(more).toEqual([]);
    const name = defaultName(answerer.user.id);
    expect(email!.subject).toBe(`${name} replied to your comment on “${LESSON}”`);
    const link = `https://school.example/courses/${courseSlug}/lessons/${lessonSlug}#comment-${reply}`;
    expect(email!.textBody).toContain(link);
    expect(email!.textBody).toContain(`“${LESSON}” (${COURSE})`);
    expect(email!.textBody).toContain('> Once a week is plenty. Take it out, discard half');
    // Plain text, shortened: the whole reply is on the page.
    expect(email!.textBody).not.toContain(replyText.trim());
    expect(email!.textBody).toMatch(/More detail\.…/);
    expect(email!.textBody).not.toContain('answerer@example.com');
    expect(await CommentReplyEmail.query(db()).findById(reply)).toMatchObject({
      outcome: 'sent',
      outboxEmailId: email!.id,
    });

    // Over SMTP it carries the one-click unsubscribe headers (RFC 8058).
    const sent = smtp().messages.find((m) => m.to.includes('asker@example.com'))!;
    const raw = decodedMessage(sent.raw).replace(/\r?\n[ \t]+/g, ' '); // long headers come folded
    expect(raw).toMatch(
      /^List-Unsubscribe: <https:\/\/school\.example\/api\/store\/unsubscribe\/replies\?token=[^>]+>\r?$/m,
    );
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);

    // The job running again (a retry after a lost acknowledgement) sends nothing more.
    await services.jobs.add(db(), 'comment-reply-email', { replyId: reply });
    await afterTheWait();
    expect(await replyEmailsTo('asker@example.com')).toHaveLength(1);
  });

  it('sends nothing for a reply to one’s own comment', async () => {
    const mine = await post(answerer, 'Does rye flour work too?');
    await post(answerer, 'Answering myself: yes, it does.', mine);
    await afterTheWait();
    expect(await replyEmailsTo('answerer@example.com')).toHaveLength(0);
  });

  it('sends nothing for a reply deleted or hidden during the wait, nor under a comment deleted or hidden meanwhile', async () => {
    const before = (await replyEmailsTo('asker@example.com')).length;
    const question = await post(asker, 'Why is my starter so runny?');
    const deleted = await post(answerer, 'Oops, wrong thread.', question);
    expect((await as(answerer, request(app).delete(`/api/store/comments/${deleted}`)).send()).status).toBe(204);
    const hidden = await post(answerer, 'Buy my cheap flour at spam.example', question);
    const hiding = await as(moderator, request(app).post(`/api/admin/comments/${hidden}/hide`)).send({
      reason: 'Advertising',
    });
    expect(hiding.status).toBe(200);

    // The asker deletes their question: its replies go with it.
    const withdrawn = await post(asker, 'Never mind, found it.');
    await post(answerer, 'Glad you did.', withdrawn);
    expect((await as(asker, request(app).delete(`/api/store/comments/${withdrawn}`)).send()).status).toBe(204);

    const other = await post(asker, 'Is a glass jar better than plastic?');
    const underHidden = await post(answerer, 'Glass, so you can see the bubbles.', other);
    await as(moderator, request(app).post(`/api/admin/comments/${other}/hide`)).send({ reason: 'Duplicate' });

    await afterTheWait();
    expect(await replyEmailsTo('asker@example.com')).toHaveLength(before);
    expect(await CommentReplyEmail.query(db()).findById(hidden)).toMatchObject({ outcome: 'hidden' });
    expect(await CommentReplyEmail.query(db()).findById(underHidden)).toMatchObject({ outcome: 'hidden' });
  });

  it('sends nothing to someone who deleted their account after asking (their comment kept for the thread)', async () => {
    const leaving = await signedIn(db(), ['learner'], 'leaving@example.com');
    await createPurchase(db(), { user: leaving.user, product });
    const question = await post(leaving, 'Does the starter need a lid?');
    const reply = await post(answerer, 'A loose one, yes.', question);
    const deleted = await as(leaving, request(app).delete('/api/store/me')).send({ confirm: 'leaving@example.com' });
    expect(deleted.status).toBeLessThan(300);
    await afterTheWait();
    expect(await CommentReplyEmail.query(db()).findById(reply)).toMatchObject({ outcome: 'account-deleted' });
    expect(await OutboxEmail.query(db()).where({ kind: 'comment-reply' }).whereLike('toAddress', '%invalid%')).toEqual(
      [],
    );
  });

  it('sends nothing to someone who no longer holds the course (refunded), except under a lesson open to all', async () => {
    // A course of its own: a paid lesson (not the module's first) and one marked free.
    const held = await createProduct(db(), { name: 'Rye Breads' });
    const { lessons } = await createCourse(
      db(),
      {
        title: 'Rye Breads',
        modules: [
          {
            title: 'Rye',
            sections: [
              {
                title: 'Loaves',
                lessons: [
                  { title: 'Intro', body: '<p>i</p>' },
                  { title: 'Paid loaf', body: '<p>p</p>' },
                  { title: 'Free loaf', body: '<p>f</p>', free: true },
                ],
              },
            ],
          },
        ],
      },
      { products: [held] },
    );
    const [, paid, free] = lessons;
    const postOn = async (who: SignedIn, lesson: { id: string }, text: string, parentId?: string) => {
      const posted = await as(who, request(app).post(`/api/store/lessons/${lesson.id}/comments`)).send({
        text,
        ...(parentId && { parentId }),
      });
      expect(posted.status).toBe(201);
      return posted.body.id as string;
    };
    const refunded = await signedIn(db(), ['learner'], 'refunded@example.com');
    const regional = await signedIn(db(), ['learner'], 'regional@example.com');
    const purchase = await createPurchase(db(), { user: refunded.user, product: held });
    // A Restricted purchase opens the course from its own country: still theirs.
    await createPurchase(db(), {
      user: regional.user,
      product: held,
      status: 'Restricted',
      country: testConfig().DEFAULT_COUNTRY,
    });
    await createPurchase(db(), { user: answerer.user, product: held });
    const onPaid = await postOn(refunded, paid!, 'How dark should the crust get?');
    const onFree = await postOn(refunded, free!, 'Which rye flour?');
    const regionalQuestion = await postOn(regional, paid!, 'Can I use a tin?');
    const lost = await postOn(answerer, paid!, 'Quite dark.', onPaid);
    const kept = await postOn(answerer, free!, 'Whole rye.', onFree);
    const theirs = await postOn(answerer, paid!, 'A tin is fine.', regionalQuestion);
    await db()('purchases').where({ id: purchase.id }).update({ status: 'Refunded' });

    await afterTheWait();
    expect(await CommentReplyEmail.query(db()).findById(lost)).toMatchObject({ outcome: 'not-open' });
    expect(await CommentReplyEmail.query(db()).findById(kept)).toMatchObject({ outcome: 'sent' });
    expect(await CommentReplyEmail.query(db()).findById(theirs)).toMatchObject({ outcome: 'sent' });
    const sent = await replyEmailsTo('refunded@example.com');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.textBody).toContain('Whole rye.');
    expect(await replyEmailsTo('regional@example.com')).toHaveLength(1);
  });

  it('sends nothing to someone who turned reply emails off in Settings, and again once they turn them on', async () => {
    const before = (await replyEmailsTo('asker@example.com')).length;
    expect((await setReplyEmails(asker, false)).status).toBe(200);
    const question = await post(asker, 'Can I leave it on the counter for a week?');
    const quiet = await post(answerer, 'Not a week, no.', question);
    await afterTheWait();
    expect(await replyEmailsTo('asker@example.com')).toHaveLength(before);
    expect(await CommentReplyEmail.query(db()).findById(quiet)).toMatchObject({ outcome: 'opted-out' });

    await setReplyEmails(asker, true);
    await post(answerer, 'Two days at most.', question);
    await afterTheWait();
    expect(await replyEmailsTo('asker@example.com')).toHaveLength(before + 1);
  });

  it('turns them off through the email’s one-click link, signed out, as a mail client POSTs it', async () => {
    const [latest] = await replyEmailsTo('asker@example.com').orderBy('createdAt', 'desc').limit(1);
    const oneClick = new URL(latest!.listUnsubscribeUrl!);
    const pageLink = new URL(/^.*(https:\/\/school\.example\/unsubscribe\?token=\S+)$/m.exec(latest!.textBody!)![1]!);
    expect(pageLink.searchParams.get('token')).toBe(oneClick.searchParams.get('token'));

    // Opening the page's link (what a mail scanner does) changes nothing: it is the storefront's page.
    expect(await wantsReplies()).toBe(true);
    const unsubscribed = await request(app)
      .post(oneClick.pathname + oneClick.search)
      .type('form')
      .send('List-Unsubscribe=One-Click');
    expect(unsubscribed.status).toBe(200);
    expect(unsubscribed.body).toEqual({ replies: false });
    expect(await wantsReplies()).toBe(false);
    // The other preferences stay; a second click answers the same.
    const prefs = await as(asker, request(app).get('/api/store/prefs?type=global')).send();
    expect(prefs.body.fields).toMatchObject({ emails: { replies: false } });
    expect(
      (
        await request(app)
          .post(oneClick.pathname + oneClick.search)
          .send()
      ).status,
    ).toBe(200);

    const before = (await replyEmailsTo('asker@example.com')).length;
    const question = await post(asker, 'Last question: whole wheat?');
    await post(answerer, 'Sure.', question);
    await afterTheWait();
    expect(await replyEmailsTo('asker@example.com')).toHaveLength(before);
  });

  it('refuses a link that is cut, altered or made for someone else (400 unsubscribe-link-invalid), changing nothing', async () => {
    await setReplyEmails(answerer, true);
    const { oneClick } = await services.replyEmailLinks.links(asker.user.id);
    const token = new URL(oneClick).searchParams.get('token')!;
    const [, signature] = token.split('.');
    for (const bad of [token.slice(0, -3), `${answerer.user.id}.${signature}`, 'not-a-token', `${asker.user.id}.`]) {
      const answer = await request(app)
        .post(`/api/store/unsubscribe/replies?token=${encodeURIComponent(bad)}`)
        .send();
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('unsubscribe-link-invalid');
    }
    const missing = await request(app).post('/api/store/unsubscribe/replies').send();
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('validation-failed');
    const prefs = await as(answerer, request(app).get('/api/store/prefs?type=global')).send();
    expect(prefs.body.fields.emails).toEqual({ replies: true });
  });

  async function wantsReplies(): Promise<boolean> {
    const prefs = await as(asker, request(app).get('/api/store/prefs?type=global')).send();
    return prefs.body.fields.emails?.replies !== false;
  }
});
