import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentResource, Product } from '../support/models';
import {
  createCoupon,
  createCourse,
  createProduct,
  createRevenueSplit,
  createUser,
  type ProductInput,
} from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import { as, signedIn } from '../support/auth';
import { checkCourse, checkCourseList, jsonLdOf } from '../support/course-rich-results';
import { useTestDatabase } from '../support/db';

/*
 * The public sales pages as the server sends them (the HTML a search engine or a visitor without JavaScript reads):
 * the price and the running sale in the page, lengths only from complete data, structured data that meets Google's
 * course rich-result rules, and the home page's order.
 */

const DAY = 86_400_000;
const publicUrl = 'https://learn.example.com';

/** The text of an HTML fragment, tags dropped and entities React writes decoded. */
const textOf = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');

describe('the sales pages in the server’s HTML', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const app = () => testApp(db(), { config: testConfig({ PUBLIC_URL: publicUrl }) });
  let complete: Product;
  let partial: Product;
  let completeCourse: ContentResource;
  let partialCourse: ContentResource;
  let saleEnds: Date;

  /** A course of `count` lessons granted by `product`, in one module. */
  async function courseOf(product: Product, title: string, count: number) {
    const lessons = Array.from({ length: count }, (_, i) => ({ title: `${title} lesson ${i + 1}`, body: '<p>x</p>' }));
    return createCourse(
      db(),
      { title, modules: [{ title: `${title} module`, sections: [{ title: 'S', lessons }] }] },
      {
        products: [product],
      },
    );
  }

  async function setMinutes(lesson: ContentResource, minutes: number) {
    await db()('contentResources')
      .where({ id: lesson.id })
      .update({ fields: db().raw(`fields || jsonb_build_object('durationMinutes', ?::int)`, [minutes]) });
  }

  beforeAll(async () => {
    await db()('schoolSettings').update({ name: 'Typed Academy' });

    complete = await createProduct(db(), {
      name: 'Complete Course',
      description: 'Every lesson timed.',
      unitAmount: 14900,
    });
    let lessons: ContentResource[];
    ({ course: completeCourse, lessons } = await courseOf(complete, 'Timed', 3));
    for (const [i, lesson] of lessons.entries()) await setMinutes(lesson, [30, 45, 50][i]!);
    const ada = await createUser(db(), { name: 'Ada Lovelace' });
    await createRevenueSplit(db(), { productId: complete.id, type: 'owner', percent: 0.7, userId: ada.id });
    saleEnds = new Date(Date.now() + 3 * DAY + 5 * 3_600_000);
    await createCoupon(db(), {
      default: true,
      percentageDiscount: 0.2,
      restrictedToProductId: complete.id,
      expires: saleEnds,
    });

    // Nine lessons, one of them a ready 20-second video, the rest of unknown length.
    partial = await createProduct(db(), { name: 'Partial Course', description: 'Mostly untimed.', unitAmount: 4900 });
    ({ course: partialCourse, lessons } = await courseOf(partial, 'Untimed', 9));
    await db()('lessonVideos').insert({
      lessonId: lessons[0]!.id,
      status: 'ready',
      sourceKey: 'videos/source.mp4',
      sourceName: 'source.mp4',
      sourceSize: 1000,
      durationMs: 20_000,
      hlsKey: 'videos/hls/master.m3u8',
    });
  });

  it('has the price, the sale’s strike-through and label, and the countdown in the product page’s HTML', async () => {
    const html = (await request(app()).get(`/products/${complete.slug}`).expect(200)).text;
    expect(html).not.toContain('Loading the price');
    const box = /<section class="price-box"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    // 20 % off $149.00: $119.20 large, $149.00 struck through.
    expect(textOf(box)).toContain('$119.20');
    expect(box).toMatch(/<s class="price-full"[^>]*>\$149\.00<\/s>/);
    expect(textOf(html)).toContain('Sale: 20 % off');
    // The countdown: its end as a machine-readable time, and the time left as text (not dashes).
    const countdown = /<div class="sale-banner"[\s\S]*?<\/div>/.exec(html)?.[0] ?? '';
    expect(countdown.toLowerCase()).toContain(`<time datetime="${saleEnds.toISOString().toLowerCase()}">`);
    // One unit reads singular ("01 second"), as the countdown writes it.
    expect(textOf(countdown)).toMatch(/ends in 3 days 0[45] hours \d\d minutes? \d\d seconds?/);
    expect(countdown).not.toContain('>--<');
    // Counted from the minute the server rendered it (so the HTML, and its ETag, hold for that minute): the seconds
    // left are the end's own.
    const seconds = Math.floor((saleEnds.getTime() % 60_000) / 1000);
    expect(textOf(countdown)).toContain(`${String(seconds).padStart(2, '0')} second${seconds === 1 ? '' : 's'}`);
    // The end is written in UTC on the server (the browser writes it in the reader's zone).
    expect(textOf(countdown)).toMatch(/Until \w{3} \d{1,2}, \d{4}, \d{1,2}:\d\d [AP]M UTC/);
  });

  it('gives the home, product and course pages structured data that meets Google’s course rich-result rules', async () => {
    const home = (await request(app()).get('/').expect(200)).text;
    const [list] = jsonLdOf(home);
    const listed = checkCourseList(list, publicUrl);
    expect(listed.errors).toEqual([]);
    expect(listed.urls).toContain(`${publicUrl}/products/${complete.slug}`);

    // Every course the list names has its Course info on its page.
    for (const url of listed.urls.filter((u) => u.endsWith(complete.slug!))) {
      const page = (await request(app()).get(new URL(url).pathname).expect(200)).text;
      const [course] = jsonLdOf(page);
      expect(checkCourse(course)).toEqual({ errors: [], missingRecommended: ['image'] });
      expect(course).toMatchObject({
        name: 'Complete Course',
        provider: { '@type': 'Organization', name: 'Typed Academy' },
        offers: [{ category: 'Paid', price: '119.20', priceCurrency: 'USD' }],
        hasCourseInstance: [
          { courseMode: 'Online', courseWorkload: 'PT2H5M', instructor: [{ '@type': 'Person', name: 'Ada Lovelace' }] },
        ],
      });
    }

    const outline = (await request(app()).get(`/courses/${completeCourse.fields.slug}`).expect(200)).text;
    const [course] = jsonLdOf(outline);
    expect(checkCourse(course).errors).toEqual([]);
    expect(course).toMatchObject({
      name: 'Timed',
      provider: { name: 'Typed Academy' },
      offers: [{ category: 'Paid', price: '119.20', url: `${publicUrl}/products/${complete.slug}` }],
      hasCourseInstance: [{ courseMode: 'Online', courseWorkload: 'PT2H5M' }],
    });
  });

  it('shows a length only when every lesson has one: "9 lessons", no "1 min", no workload', async () => {
    const page = (await request(app()).get(`/products/${partial.slug}`).expect(200)).text;
    // The facts at the top and the curriculum's summary count lessons; only the video's own lesson says "1 min".
    const facts = textOf(/<ul class="hero-facts"[\s\S]*?<\/ul>/.exec(page)?.[0] ?? '');
    expect(facts).toContain('9 lessons');
    expect(facts).not.toContain('min');
    const summary = textOf(/<p class="curriculum-summary">[\s\S]*?<\/p>/.exec(page)?.[0] ?? '');
    expect(summary).toContain('9 lessons');
    expect(summary).not.toContain('min');
    expect(textOf(page)).not.toContain('of lessons'); // "About 1 min of lessons" in what is included
    const [course] = jsonLdOf(page);
    expect(course!.hasCourseInstance).toEqual([{ '@type': 'CourseInstance', courseMode: 'Online' }]);
    // Without a length the page is not eligible for the rich result, and the validator says why.
    expect(checkCourse(course).errors).toEqual(['hasCourseInstance[0]: courseSchedule or courseWorkload is required']);

    const outline = (await request(app()).get(`/courses/${partialCourse.fields.slug}`).expect(200)).text;
    expect(textOf(/<p class="hint course-minutes">[\s\S]*?<\/p>/.exec(outline)?.[0] ?? '')).toBe(' 9 lessons ');
    expect(JSON.stringify(jsonLdOf(outline))).not.toContain('courseWorkload');

    // The home page's card says the same; the complete course's card has its length and its instructor.
    const home = textOf((await request(app()).get('/').expect(200)).text);
    expect(home).toContain('Partial Course 9 lessons');
    expect(home).toContain('Complete Course By Ada Lovelace 3 lessons · 2 h 5 min');
  });

  it('ends a free lesson with one quiet line to the course, and renders a locked one with its title, noindex', async () => {
    const outline = (await request(app()).get(`/api/store/courses/${completeCourse.fields.slug}`).expect(200)).body;
    const [free, locked] = outline.modules[0].sections[0].lessons as { slug: string; free: boolean }[];
    expect([free!.free, locked!.free]).toEqual([true, false]);
    const base = `/courses/${completeCourse.fields.slug}/lessons`;

    const page = (await request(app()).get(`${base}/${free!.slug}`).expect(200)).text;
    expect(page).not.toContain('name="robots"');
    const note = /<p class="free-preview-note">[\s\S]*?<\/p>/.exec(page)?.[0] ?? '';
    expect(textOf(note)).toContain('This lesson is a free preview of Timed. Get the whole course');
    expect(note).toContain(`href="/products/${complete.slug}"`);
    // A line, not a wall: the lesson's body is all there above it.
    expect(page.indexOf('<div class="lesson-body"')).toBeLessThan(page.indexOf('free-preview-note'));

    const closed = (await request(app()).get(`${base}/${locked!.slug}`).expect(200)).text;
    expect(closed).toContain('<meta name="robots" content="noindex" />');
    expect(closed).toMatch(/<h1>Timed lesson 2<\/h1>/);
    expect(textOf(closed)).toContain('Sign in to study this lesson');
    expect(closed).not.toContain('free-preview-note');

    // Someone signed in may hold the course: they get the page their browser renders, never the visitor's lock first.
    const reader = await signedIn(db());
    const theirs = await as(reader, request(app()).get(`${base}/${locked!.slug}`)).expect(200);
    expect(theirs.headers.vary).toMatch(/cookie/i);
    expect(theirs.text).toContain('<meta name="robots" content="noindex" />');
    expect(textOf(theirs.text)).not.toContain('Sign in to study this lesson');
    expect(theirs.text).not.toContain('prerendered-data');
    // The free lesson is the same for everyone: rendered whoever asks.
    expect((await as(reader, request(app()).get(`${base}/${free!.slug}`)).expect(200)).text).toContain(
      'free-preview-note',
    );
  });

  it('lists what can be bought first, by the featured order, then the newest; sold-out and closed after', async () => {
    const product = (name: string, input: ProductInput = {}) => createProduct(db(), { name, ...input });
    const newest = await product('Order Newest');
    const second = await product('Order Second');
    const first = await product('Order First');
    const soldOut = await product('Order Sold Out', { quantityAvailable: 0 });
    const closed = await product('Order Closed', { enrollmentClosesAt: new Date(Date.now() - DAY) });
    await db()('products').where({ id: first.id }).update({ featuredRank: 1 });
    await db()('products').where({ id: second.id }).update({ featuredRank: 2 });
    await db()('products').where({ id: soldOut.id }).update({ featuredRank: 1 });
    await db()('products').where({ id: closed.id }).update({ featuredRank: 3 });
    // Created last, so newest: still after the featured ones.
    const latest = await product('Order Latest');

    const names = ((await request(app()).get('/api/store/products').expect(200)).body.data as { name: string }[])
      .map((p) => p.name)
      .filter((name) => name.startsWith('Order '));
    expect(names).toEqual([
      'Order First',
      'Order Second',
      'Order Latest',
      'Order Newest',
      'Order Sold Out',
      'Order Closed',
    ]);
    void newest;
    void latest;

    // The home page shows them so, and its course list says the same order.
    const html = (await request(app()).get('/').expect(200)).text;
    const shown = [...html.matchAll(/class="card-link">([^<]+)</g)]
      .map((m) => m[1]!)
      .filter((name) => name.startsWith('Order '));
    expect(shown).toEqual(names);
    // A card without a picture shows the product's initials on a cover: every card has the same shape.
    const card = html.split('<li class="product-card">').find((c) => c.includes('>Order First<'))!;
    expect(card).toMatch(/<div class="card-image card-image-placeholder" aria-hidden="true"><span>OF<\/span><\/div>/);
    const urls = checkCourseList(jsonLdOf(html)[0], publicUrl).urls;
    expect(urls.indexOf(`${publicUrl}/products/${first.slug}`)).toBeLessThan(
      urls.indexOf(`${publicUrl}/products/${soldOut.slug}`),
    );
  });

  it('the console sets the featured order, and refuses one out of range', async () => {
    const support = await signedIn(db(), ['support']);
    const product = await createProduct(db(), { name: 'Console Featured' });
    const set = await as(support, request(app()).put(`/api/admin/products/${product.id}`)).send({ featuredRank: 4 });
    expect(set.status).toBe(200);
    expect(set.body.featuredRank).toBe(4);
    const refused = await as(support, request(app()).put(`/api/admin/products/${product.id}`)).send({
      featuredRank: 0,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'validation-failed', errors: { featuredRank: expect.any(String) } });
    const cleared = await as(support, request(app()).put(`/api/admin/products/${product.id}`)).send({
      featuredRank: null,
    });
    expect(cleared.body.featuredRank).toBeNull();
  });
});
