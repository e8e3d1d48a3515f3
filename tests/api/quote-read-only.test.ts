import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { COMMERCE_LIMITS } from '../../api/src/commerce/checkout/limits';
import { createCoupon, createProduct } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { manualClock, onTheHour } from '../support/clock';
import { useTestDatabase } from '../support/db';

/**
 * A quote is a read: asking for one with a code that applies, however often, from a network that has not guessed
 * lately, writes nothing (no limiter row, no session touched). Guessing codes is still limited: codes that do not
 * apply are counted before they are answered, past the limit every quote naming a code is refused with 429
 * `rate-limited`, a code that applies too, and once a network has guessed, every code it tries is counted before it is
 * looked up, so a code that applies cannot be told from a guess by being answered.
 */

type App = ReturnType<ReturnType<typeof createApp>['callback']>;

describe('quotes write nothing; coupon guesses are still limited', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const clock = manualClock(onTheHour());
  const { max } = COMMERCE_LIMITS.couponQuotePerIp;
  let app: App;
  let course: { id: string };

  beforeAll(async () => {
    const deps = testDeps(db(), { clock, config: testConfig({ COMMERCE_LIMIT_SCALE: '1', TRUST_PROXY: 'true' }) });
    app = createApp(deps).callback();
    course = await createProduct(db(), { name: 'Read-only Course', unitAmount: 5000 });
    await createCoupon(db(), { code: 'REALCODE', percentageDiscount: 0.2 });
  });

  const quote = (coupon: string, ip: string, who?: SignedIn) =>
    as(who, request(app).get(`/api/store/products/${course.id}/quote`))
      .set('X-Forwarded-For', ip)
      .query({ coupon });
  /** Every row a quote could write: the limiter's counters and the sessions (their last-seen time). */
  const written = async () => ({
    hits: await db()('rateLimitHits').orderBy(['bucket', 'windowStart']).select(),
    sessions: await db()('sessions').orderBy('id').select('id', 'lastSeenAt', 'expires'),
  });

  it('writes no row for quotes with a code that applies, repeated past the limit, signed in or not', async () => {
    const buyer = await signedIn(db());
    // The session's first request notes when it was last seen (at most once in ten minutes): not the quote's doing.
    expect((await quote('REALCODE', '192.0.2.10', buyer)).status).toBe(200);
    const before = await written();
    const answers = await Promise.all(
      Array.from({ length: max + 20 }, (_, i) =>
        quote('REALCODE', i % 2 ? '192.0.2.10' : '192.0.2.11', i % 3 ? buyer : undefined),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body.coupon).toEqual({ code: 'REALCODE', problem: null, message: null });
    }
    expect(await written()).toEqual(before);
    expect(before.hits).toEqual([]);
  });

  it('refuses guesses past the limit with 429 rate-limited, answering no more of a parallel burst than the limit', async () => {
    const burst = await Promise.all(Array.from({ length: max + 15 }, (_, i) => quote(`GUESS${i}`, '198.51.100.7')));
    const answered = burst.filter((a) => a.status === 200);
    expect(answered).toHaveLength(max);
    for (const answer of answered) expect(answer.body.coupon.problem).toBe('coupon-not-valid');
    for (const refused of burst.filter((a) => a.status !== 200)) {
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('rate-limited');
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    }
    // Once guessed out, a real code is refused too (or guessing could go on), until the window passes.
    const refused = await quote('REALCODE', '198.51.100.7');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate-limited');
    expect((await quote('REALCODE', '198.51.100.8')).status).toBe(200);
    clock.advance(COMMERCE_LIMITS.couponQuotePerIp.windowSeconds * 1000);
    expect((await quote('REALCODE', '198.51.100.7')).status).toBe(200);
  });

  const rateLimited = (answer: request.Response) => {
    expect(answer.status).toBe(429);
    expect(answer.body.code).toBe('rate-limited');
    expect(answer.headers['retry-after']).toMatch(/^\d+$/);
  };

  it('after a burst of guesses, answers at most the limit of a second burst and refuses a real code like a guess', async () => {
    const network = '203.0.113.9';
    const first = await Promise.all(
      Array.from({ length: max + 30 }, (_, i) => quote(i === 20 ? 'REALCODE' : `FIRST${i}`, network)),
    );
    // The first burst may be answered before any guess is counted, but no more guesses than the limit.
    const firstGuesses = first.filter((_, i) => i !== 20);
    expect(firstGuesses.filter((a) => a.status === 200).length).toBeLessThanOrEqual(max);
    for (const answer of first.filter((a) => a.status !== 200)) rateLimited(answer);

    clock.advance(COMMERCE_LIMITS.couponQuotePerIp.windowSeconds * 1000);
    const codes = Array.from({ length: max + 20 }, (_, i) => (i % 5 === 0 ? 'REALCODE' : `SECOND${i}`));
    const second = await Promise.all(codes.map((code) => quote(code, network)));
    const answered = second.filter((a) => a.status !== 429);
    expect(answered.length).toBeLessThanOrEqual(max);
    for (const answer of answered) expect(answer.status).toBe(200);
    for (const answer of second.filter((a) => a.status === 429)) rateLimited(answer);
    rateLimited(await quote('REALCODE', network));
  });

  it('counts a real code from a network that guessed lately, and refuses a guess past the limit rather than answer it', async () => {
    const network = '203.0.113.20';
    expect((await quote('NOTACODE', network)).body.coupon.problem).toBe('coupon-not-valid');
    clock.advance(COMMERCE_LIMITS.couponQuotePerIp.windowSeconds * 1000);
    for (let i = 0; i < max; i++) expect((await quote('REALCODE', network)).status).toBe(200);
    rateLimited(await quote('ANOTHERGUESS', network));
    rateLimited(await quote('REALCODE', network));
  });

  it('trusts a network again two hours after its last guess: its real code writes nothing', async () => {
    const network = '203.0.113.30';
    expect((await quote('NOTACODE', network)).body.coupon.problem).toBe('coupon-not-valid');
    clock.advance(2 * 60 * 60 * 1000);
    const before = await written();
    for (let i = 0; i < 3; i++) expect((await quote('REALCODE', network)).status).toBe(200);
    expect(await written()).toEqual(before);
  });
});
