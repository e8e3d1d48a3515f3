import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { CANDIDATES_SQL } from '../../api/src/search/queries';
import { createServices } from '../../api/src/services';
import { type ContentResource, type Product } from '../support/models';
import { createCourse, createProduct, createPurchase, createResource, linkResource } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

interface Found {
  type: string;
  title: string;
  url: string;
  snippet: string | null;
}

describe('search (docs/domain.md §24)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let product: Product;
  let course: ContentResource;
  let lessons: ContentResource[];
  let buyer: SignedIn;

  beforeAll(async () => {
    const deps = testDeps(db(), { config: testConfig({ TRUST_PROXY: 'true', COUNTRY_HEADER: 'cf-ipcountry' }) });
    app = createApp(deps, { services: createServices(deps) }).callback();
    product = await createProduct(db(), {
      name: 'Quokka Typescript Essentials',
      description: 'Types for working quokka programmers.',
    });
    ({ course, lessons } = await createCourse(
      db(),
      {
        title: 'Quokka Typescript Essentials',
        description: 'A course about quokka types.',
        modules: [
          {
            title: 'Basics',
            sections: [
              {
                title: 'Start',
                lessons: [
                  { title: 'Quokka welcome', body: '<p>Welcome to the café, where marmalade is served.</p>' },
                  { title: 'Quokka generics', body: '<p>The paid body speaks of xylophones and generics.</p>' },
                  {
                    title: 'Quokka markup',
                    free: true,
                    body: '<p>Zebra &lt;script&gt;alert(1)&lt;/script&gt; <b>bold</b> zebra \uE000 stripes, 1 &lt; 2 &amp;&amp; 3 &gt; 2 "quoted"</p><img src=x onerror=alert(2)>',
                  },
                ],
              },
            ],
          },
        ],
      },
      { products: [product] },
    ));
    buyer = await signedIn(db());
    await createPurchase(db(), { user: buyer.user, product });
  });

  const search = (q: string, who?: SignedIn) =>
    as(who, request(app).get(`/api/store/search`).query({ q })).set('cf-ipcountry', 'US');
  const found = async (q: string, who?: SignedIn): Promise<Found[]> => {
    const answer = await search(q, who);
    expect(answer.status).toBe(200);
    return answer.body.data;
  };

  it('finds products, courses and lessons by a word of their title, ranked, with its address', async () => {
    const results = await found('quokka');
    expect(results.map((r) => r.type).sort()).toEqual(['course', 'lesson', 'lesson', 'lesson', 'product']);
    expect(results.find((r) => r.type === 'product')!.url).toBe(`/products/${product.slug}`);
    expect(results.find((r) => r.type === 'course')!.url).toBe(`/courses/${course.fields.slug}`);
    expect(results.find((r) => r.title === 'Quokka welcome')!.url).toBe(
      `/courses/${course.fields.slug}/lessons/${lessons[0]!.fields.slug}`,
    );
    // Its title (weight A) ranks the course above a lesson naming it only in part.
    expect(
      results
        .slice(0, 2)
        .map((r) => r.type)
        .sort(),
    ).toEqual(['course', 'product']);
  });

  it('finds a title through a typo, and words without their accents', async () => {
    expect((await found('typscript')).map((r) => r.title)).toContain('Quokka Typescript Essentials');
    const cafe = await found('cafe');
    expect(cafe.map((r) => r.title)).toEqual(['Quokka welcome']); // the first lesson of a module is open to all
    expect(cafe[0]!.snippet).toContain('<mark>café</mark>');
  });

  it('shows a visitor a paid lesson by its title without a snippet, and nothing found only in its body', async () => {
    const byTitle = await found('generics');
    expect(byTitle).toEqual([
      {
        type: 'lesson',
        title: 'Quokka generics',
        url: `/courses/${course.fields.slug}/lessons/${lessons[1]!.fields.slug}`,
        snippet: null,
      },
    ]);
    expect(await found('xylophones')).toEqual([]);
    const bought = await found('xylophones', buyer);
    expect(bought.map((r) => r.title)).toEqual(['Quokka generics']);
    expect(bought[0]!.snippet).toContain('<mark>xylophones</mark>');
  });

  it('escapes markup in the content: a snippet holds no element but <mark>', async () => {
    const [markup] = await found('zebra');
    expect(markup!.title).toBe('Quokka markup');
    // Text that reads as markup is dropped by the headline or escaped, never passed on as markup.
    expect(markup!.snippet).not.toMatch(/<script|<img|onerror/);
    expect(markup!.snippet).toContain('1 &lt; 2 &amp;&amp; 3 &gt; 2 &quot;quoted');
    expect(markup!.snippet).toContain('<mark>Zebra</mark>');
    expect(markup!.snippet!.replaceAll('<mark>', '').replaceAll('</mark>', '')).not.toMatch(/[<>\uE000\uE001]/);
  });

  it('never shows drafts, archived or private content, nor draft and archived products', async () => {
    const hidden = await createProduct(db(), { name: 'Wombat draft product', status: 'draft' });
    await createProduct(db(), { name: 'Wombat archived product', status: 'archived' });
    for (const [state, visibility] of [
      ['draft', 'public'],
      ['archived', 'public'],
      ['published', 'private'],
      ['published', 'unlisted'],
    ] as const) {
      const { course: hiddenCourse } = await createCourse(
        db(),
        {
          title: `Wombat ${state} ${visibility}`,
          modules: [
            { title: 'M', sections: [{ title: 'S', lessons: [{ title: 'Wombat lesson', body: '<p>w</p>' }] }] },
          ],
        },
        { products: [hidden] },
      );
      await db()('contentResources')
        .where({ id: hiddenCourse.id })
        .update({ fields: { ...hiddenCourse.fields, state, visibility } });
    }
    const draftLesson = await createResource(db(), 'lesson', { title: 'Wombat draft lesson', state: 'draft' });
    const section = (await db()('contentResources').whereRaw(`fields->>'title' = 'Start'`).first()) as ContentResource;
    await linkResource(db(), section, draftLesson, 9);
    expect(await found('wombat')).toEqual([]);
    expect(await found('wombat', buyer)).toEqual([]);
  });

  it('follows renames and deletions (the documents are kept by the database)', async () => {
    await db()('products').where({ id: product.id }).update({ name: 'Platypus Essentials' });
    expect((await found('platypus')).map((r) => r.type)).toEqual(['product']);
    await db()('contentResources').where({ id: lessons[2]!.id }).update({ deletedAt: new Date() });
    expect(await found('zebra')).toEqual([]);
  });

  it('stays right through body edits, state changes, link changes and deletions, of lessons, courses and products', async () => {
    const seller = await createProduct(db(), { name: 'Numbat seller', slug: `numbat-seller-${Date.now()}` });
    const { course: numbat, lessons: numbatLessons } = await createCourse(
      db(),
      {
        title: 'Numbat course',
        modules: [
          {
            title: 'M',
            sections: [{ title: 'S', lessons: [{ title: 'Numbat lesson', body: '<p>termites galore</p>' }] }],
          },
        ],
      },
      { products: [seller] },
    );
    const lesson = numbatLessons[0]!;
    const titles = async (q: string) => (await found(q)).map((r) => `${r.type} ${r.title}`);
    const setFields = (id: string, fields: object) =>
      db()('contentResources')
        .where({ id })
        .update({ fields: db().raw('fields || ?::jsonb', [JSON.stringify(fields)]) });
    expect(await titles('termites')).toEqual(['lesson Numbat lesson']);

    // The body edited: the new words find it, the old ones no longer do.
    await setFields(lesson.id, { body: '<p>ants aplenty</p>' });
    expect(await titles('termites')).toEqual([]);
    expect(await titles('aplenty')).toEqual(['lesson Numbat lesson']);
    // The lesson archived, then published again.
    await setFields(lesson.id, { state: 'archived' });
    expect(await titles('numbat')).toEqual(['course Numbat course', 'product Numbat seller']);
    await setFields(lesson.id, { state: 'published' });
    expect(await titles('aplenty')).toEqual(['lesson Numbat lesson']);
    // Its course archived: neither the course nor the lesson in it are found.
    await setFields(numbat.id, { state: 'archived' });
    expect(await titles('numbat')).toEqual(['product Numbat seller']);
    await setFields(numbat.id, { state: 'published' });
    // The lesson taken out of its section (its link deleted): in no course, so found nowhere.
    await db()('contentResourceResources').where({ resourceId: lesson.id }).update({ deletedAt: new Date() });
    expect(await titles('aplenty')).toEqual([]);
    await db()('contentResourceResources').where({ resourceId: lesson.id }).update({ deletedAt: null });
    expect(await titles('aplenty')).toEqual(['lesson Numbat lesson']);
    // The product's new address, then the product archived.
    await db()('products').where({ id: seller.id }).update({ slug: 'numbat-renamed' });
    expect((await found('seller')).find((r) => r.title === 'Numbat seller')!.url).toBe('/products/numbat-renamed');
    await db()('products').where({ id: seller.id }).update({ status: 'archived' });
    expect(await titles('numbat')).toEqual(['course Numbat course', 'lesson Numbat lesson']);
    // The lesson's row deleted outright.
    await db()('contentResourceResources').where({ resourceId: lesson.id }).delete();
    await db()('contentResources').where({ id: lesson.id }).delete();
    expect(await titles('numbat')).toEqual(['course Numbat course']);
  });

  it('finds words of scripts written with combining marks (Devanagari, vowelled Arabic) whole, right to left too', async () => {
    await createCourse(db(), {
      title: 'नमस्ते हिंदी',
      description: 'शुरुआती पाठ्यक्रम',
      modules: [
        {
          title: 'M',
          sections: [{ title: 'S', lessons: [{ title: 'مَرْحَبًا بالعالم', body: '<p>درس مجاني</p>', free: true }] }],
        },
      ],
    });
    expect((await found('नमस्ते')).map((r) => r.title)).toEqual(['नमस्ते हिंदी']);
    expect((await found('हिंदी पाठ्यक्रम')).map((r) => r.title)).toEqual(['नमस्ते हिंदी']);
    expect((await found('مَرْحَبًا')).map((r) => r.title)).toEqual(['مَرْحَبًا بالعالم']);
  });

  it('refuses an empty or too long search with validation-failed (400)', async () => {
    for (const q of ['', '   ', 'x'.repeat(201)]) {
      const answer = await search(q);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('validation-failed');
      expect(answer.body.errors).toHaveProperty('q');
    }
    const none = await as(undefined, request(app).get('/api/store/search'));
    expect(none.status).toBe(400);
    expect(none.body.code).toBe('validation-failed');
    expect(await found('!!! ???')).toEqual([]);
    expect(await found('x'.repeat(200))).toEqual([]);
  });

  it('answers whatever is typed without an error: control characters, tsquery syntax, punctuation alone, long words', async () => {
    for (const q of [
      '\u0001\u0007\u001b[31m quokka \u007f',
      'quokka & | ! : * ( ) <-> <2> \' \\ "',
      'quokka:* | !welcome',
      '&|!:*',
      '&',
      '\u0301\u0301',
      '\u202equokka\u202c',
      '\ud83d\ude00 quokka',
      'x'.repeat(198) + ' y',
      'ש'.repeat(200),
      '𝔮'.repeat(100),
      'the of and a',
    ]) {
      const answer = await search(q);
      expect(answer.status, JSON.stringify(q)).toBe(200);
      expect(Array.isArray(answer.body.data)).toBe(true);
    }
    // Operators typed are no operators: "quokka | !welcome" is the search "quokka welcome".
    expect(await found('quokka | !welcome')).toEqual(await found('quokka welcome'));
  });

  it('answers at most twenty results', async () => {
    const many = await createProduct(db(), { name: 'Echidna bundle' });
    await createCourse(
      db(),
      {
        title: 'Echidna course',
        modules: [
          {
            title: 'M',
            sections: [
              {
                title: 'S',
                lessons: Array.from({ length: 30 }, (_, i) => ({
                  title: `Echidna ${i}`,
                  body: '<p>e</p>',
                  free: true,
                })),
              },
            ],
          },
        ],
      },
      { products: [many] },
    );
    expect(await found('echidna')).toHaveLength(20);
  });

  it('looks for titles by trigrams (a typo) only while the words find fewer than a page of matches', async () => {
    await createProduct(db(), { name: 'Dunart field kit' });
    // One word match: the near title joins it.
    await createProduct(db(), { name: 'Dunnart guide' });
    expect((await found('dunnart')).map((r) => r.title)).toEqual(['Dunnart guide', 'Dunart field kit']);
    // Eighty matches of the word (the candidates read before access is judged): the page is theirs alone.
    for (let i = 0; i < 79; i++) await createProduct(db(), { name: `Marsupial ${i}`, description: 'A dunnart map.' });
    const page = await found('dunnart');
    expect(page).toHaveLength(20);
    expect(page[0]!.title).toBe('Dunnart guide');
    expect(page.map((r) => r.title)).not.toContain('Dunart field kit');
    expect(page.slice(1).every((r) => r.snippet?.includes('<mark>dunnart</mark>'))).toBe(true);
  });

  it('reads matches from the GIN indexes of documents and title trigrams', async () => {
    const plan = await db().transaction(async (trx) => {
      await trx.raw('SET LOCAL enable_seqscan = off');
      const { rows } = await trx.raw(`EXPLAIN ${CANDIDATES_SQL}`, {
        terms: 'quokka:*',
        typed: 'quokka',
        limit: 80,
        pool: 400,
      });
      return (rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('search_documents_document');
    expect(plan).toContain('search_documents_title_trigrams');
  });
});
