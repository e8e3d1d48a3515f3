import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { createServices } from '../../api/src/services';
import type { PurchaseStatus } from '../../api/src/shared/purchase-status';
import { createCourse, createProduct, createPurchase } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

/** A lesson as generated: its state, whether its link is free, and whether its own visibility hides it. */
/** Twelve random lowercase letters. */
const randomWord = () => [...randomBytes(12)].map((b) => String.fromCharCode(97 + (b % 26))).join('');

const lessonShape = fc.record({
  state: fc.constantFrom('published', 'published', 'published', 'draft', 'archived'),
  free: fc.constantFrom(false, false, true),
  visibility: fc.constantFrom('public', 'public', 'public', 'private'),
});

const scenario = fc.record({
  course: fc.record({
    state: fc.constantFrom('published', 'published', 'published', 'draft', 'archived'),
    visibility: fc.constantFrom('public', 'public', 'public', 'unlisted', 'private'),
  }),
  moduleDraft: fc.constantFrom(false, false, false, true),
  lessons: fc.array(lessonShape, { minLength: 1, maxLength: 5 }),
  /** The reader: a visitor, or a learner with no purchase or one of these, from their own country or another. */
  reader: fc.oneof(
    fc.constant({ kind: 'visitor' as const }),
    fc.record({
      kind: fc.constant('learner' as const),
      purchase: fc.constantFrom<PurchaseStatus | null>(null, 'Valid', 'Restricted', 'Refunded', 'Disputed'),
      purchasedIn: fc.constantFrom('US', 'DE'),
    }),
  ),
});

/**
 * Search never leaks a body the reader cannot open (docs/domain.md §24), over random readers and content states: every
 * lesson's body holds a word found nowhere else, and whatever is searched, a lesson's body word reaches the reader
 * (a result, a snippet) only if the lesson page opens that lesson for them; and one they may open is found by it.
 */
describe('search against access (docs/domain.md §24), property', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;

  beforeAll(async () => {
    const deps = testDeps(db(), { config: testConfig({ TRUST_PROXY: 'true', COUNTRY_HEADER: 'cf-ipcountry' }) });
    app = createApp(deps, { services: createServices(deps) }).callback();
  });

  const get = (who: SignedIn | undefined, path: string) =>
    as(who, request(app).get(`/api/store${path}`)).set('cf-ipcountry', 'US');

  it('shows a body word, or a lesson found by it, only to readers the lesson page opens it for', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ course: courseShape, moduleDraft, lessons: shapes, reader }) => {
        // Words no other run or lesson shares, nor a prefix or trigrams of them (a typo would find a near one).
        const words = new Map<string, string>();
        const word = (what: string, i: number) => {
          const key = `${what}:${i}`;
          if (!words.has(key)) words.set(key, randomWord());
          return words.get(key)!;
        };
        const product = await createProduct(db(), { name: `Product ${word('p', 0)}` });
        const { course, lessons } = await createCourse(
          db(),
          {
            title: `Course ${word('c', 0)}`,
            modules: [
              {
                title: 'Module',
                sections: [
                  {
                    title: 'Section',
                    lessons: shapes.map((shape, i) => ({
                      title: `Lesson ${word('title', i)}`,
                      body: `<p>${word('body', i)} <b>only</b> here</p>`,
                      free: shape.free,
                    })),
                  },
                ],
              },
            ],
          },
          { products: [product] },
        );
        await db()('contentResources')
          .where({ id: course.id })
          .update({ fields: { ...course.fields, ...courseShape } });
        if (moduleDraft)
          await db()('contentResources')
            .whereIn('id', db()('contentResourceResources').where({ resourceOfId: course.id }).select('resourceId'))
            .update({ fields: db().raw(`fields || '{"state": "draft"}'`) });
        for (const [i, lesson] of lessons.entries())
          await db()('contentResources')
            .where({ id: lesson.id })
            .update({ fields: { ...lesson.fields, state: shapes[i]!.state, visibility: shapes[i]!.visibility } });
        let who: SignedIn | undefined;
        if (reader.kind === 'learner') {
          who = await signedIn(db());
          if (reader.purchase)
            await createPurchase(db(), {
              user: who.user,
              product,
              status: reader.purchase,
              country: reader.purchasedIn,
            });
        }

        // What the lesson page opens for this reader: the oracle.
        const opens: boolean[] = [];
        for (const lesson of lessons) {
          const page = await get(who, `/courses/${course.id}/lessons/${lesson.id}`);
          opens.push(page.status === 200 && page.body.open === true);
        }

        const bodyWords = lessons.map((_, i) => word('body', i));
        const searches = [...bodyWords, ...lessons.map((_, i) => word('title', i)), word('c', 0), 'only here'];
        for (const q of searches) {
          const answer = await get(who, `/search?q=${encodeURIComponent(q)}`);
          expect(answer.status).toBe(200);
          const text = JSON.stringify(answer.body);
          for (const [i, bodyWord] of bodyWords.entries()) {
            if (!opens[i]) expect(text, `lesson ${i}'s body word, searching ${q}`).not.toContain(bodyWord);
          }
        }
        for (const [i, bodyWord] of bodyWords.entries()) {
          const answer = await get(who, `/search?q=${bodyWord}`);
          const results = answer.body.data as { title: string; snippet: string | null }[];
          if (!opens[i]) {
            expect(results).toEqual([]);
            continue;
          }
          // Opened, and listed: the course is published and public (search leaves out unlisted and private courses).
          const listed = courseShape.state === 'published' && courseShape.visibility === 'public';
          if (listed && shapes[i]!.visibility === 'public') {
            expect(results.map((r) => r.title)).toEqual([`Lesson ${word('title', i)}`]);
            expect(results[0]!.snippet).toContain(`<mark>${bodyWord}</mark>`);
          }
        }
      }),
      {
        numRuns: 30,
        // Always tried first: paid lessons a visitor can see but not open, the case a leak would show in.
        examples: [
          [
            {
              course: { state: 'published', visibility: 'public' },
              moduleDraft: false,
              lessons: [
                { state: 'published', free: false, visibility: 'public' },
                { state: 'published', free: false, visibility: 'public' },
              ],
              reader: { kind: 'visitor' },
            },
          ],
        ],
      },
    );
  }, 240_000);
});
