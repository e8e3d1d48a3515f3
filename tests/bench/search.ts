import { performance } from 'node:perf_hooks';
import type { Db } from '../../api/src/db/connection';
import { CANDIDATES_SQL } from '../../api/src/search/queries';
import { searchTerms } from '../../api/src/search/terms';
import type { SignedIn } from '../support/auth';
import { databaseAtRest } from './database-at-rest';
import { load } from './interleaved';
import { median, round, type Row } from './rows';

/** Lessons searched at BENCH_SCALE=1 (docs/domain.md §24: fast at 10,000), in courses of 500. */
const FULL_LESSONS = 10_000;
const LESSONS_PER_COURSE = 500;

/** Words the lessons' titles and bodies are made of, beside numbered terms that make each body its own. */
const TOPICS = [
  'TypeScript',
  'generics',
  'narrowing',
  'interfaces',
  'testing',
  'async',
  'databases',
  'indexes',
  'caching',
  'security',
  'accessibility',
  'performance',
  'modules',
  'errors',
  'streams',
  'functions',
  'classes',
  'promises',
  'queries',
  'deployment',
];

/**
 * The search catalogue: `lessons` published lessons in public courses of 500, one module each, the even courses
 * sold by `productId` (so a visitor finds locked lessons there), each lesson's body some 120 words.
 */
async function addSearchCatalogue(db: Db, lessons: number, productId: string): Promise<void> {
  const courses = Math.ceil(lessons / LESSONS_PER_COURSE);
  await db.raw(
    `CREATE UNLOGGED TABLE search_bench_courses AS
     SELECT c, gen_random_uuid() AS course_id, gen_random_uuid() AS module_id FROM generate_series(1, ?) AS c`,
    [courses],
  );
  await db.raw(
    `INSERT INTO content_resources (id, type, fields)
    SELECT course_id, 'course', jsonb_build_object('title', 'Search course ' || c, 'slug', 'search-course-' || c,
           'description', 'A course on ' || (?::text[])[1 + c % 20], 'state', 'published', 'visibility', 'public')
      FROM search_bench_courses
    UNION ALL
    SELECT module_id, 'module', jsonb_build_object('title', 'Module', 'state', 'published') FROM search_bench_courses`,
    [TOPICS],
  );
  await db.raw(
    `INSERT INTO content_resource_resources (resource_of_id, resource_id, position)
     SELECT course_id, module_id, 0 FROM search_bench_courses`,
  );
  await db.raw(
    `WITH made AS (
       INSERT INTO content_resources (type, fields)
       SELECT 'lesson', jsonb_build_object(
                'title', (?::text[])[1 + i % 20] || ' lesson ' || i,
                'slug', 'search-lesson-' || i,
                'state', 'published',
                'visibility', 'public',
                'body', '<h2>Part ' || i || '</h2><p>' || (
                  SELECT string_agg(CASE WHEN k % 3 = 0 THEN (?::text[])[1 + (i * k) % 20]
                                         ELSE 'term' || ((i * 7919 + k * 104729) % 5000) END, ' ')
                    FROM generate_series(1, 120) AS k) || '</p>')
         FROM generate_series(1, ?) AS i
       RETURNING id, (fields->>'slug') AS slug
     )
     INSERT INTO content_resource_resources (resource_of_id, resource_id, position)
     SELECT b.module_id, made.id, n FROM (
       SELECT id, split_part(slug, '-', 3)::int AS n FROM made
     ) made JOIN search_bench_courses b ON b.c = 1 + (made.n - 1) / ?`,
    [TOPICS, TOPICS, lessons, LESSONS_PER_COURSE],
  );
  await db.raw(
    `INSERT INTO product_content_resources (product_id, resource_id, position)
     SELECT ?, course_id, c FROM search_bench_courses WHERE c % 2 = 0`,
    [productId],
  );
}

/** The candidates' plan for `q`: which of the two GIN indexes it reads. */
async function plannedIndexes(db: Db, q: string): Promise<string[]> {
  const terms = searchTerms(q);
  const { rows } = await db.raw(`EXPLAIN ${CANDIDATES_SQL}`, { terms, typed: q, limit: 80, pool: 400 });
  const plan = (rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n');
  return ['search_documents_document', 'search_documents_title_trigrams'].filter((index) => plan.includes(index));
}

/**
 * Search over 10,000 lessons (scaled by BENCH_SCALE): the milliseconds of each kind of search, one at a time, as a
 * visitor and as a learner who owns half the courses (p50 and p95 of 20 each), whether the plans read the GIN
 * indexes, and requests per second at 32 connections over the mix.
 */
export async function searchRows(
  db: Db,
  baseUrl: string,
  learner: SignedIn,
  { scale, seconds, productId }: { scale: number; seconds: number; productId: string },
): Promise<Row[]> {
  // BENCH_SEARCH_LESSONS=10000 measures the full catalogue beside a smaller dataset for the other rows.
  const lessons =
    Number(process.env.BENCH_SEARCH_LESSONS) || Math.max(500, Math.round(FULL_LESSONS * Math.min(scale, 1)));
  const started = performance.now();
  await addSearchCatalogue(db, lessons, productId);
  await databaseAtRest(db, [
    'content_resources',
    'content_resource_resources',
    'product_content_resources',
    'search_documents',
  ]);
  console.log(`search catalogue: ${lessons} lessons in ${round((performance.now() - started) / 1000)} s, at rest`);

  const searches = ['generics', 'term4242', 'typscript', 'async databases', 'lesson'];
  // Words only in the bodies of lessons a visitor may not open: the right answer for them is none (no leak).
  const bodyOnly = new Set(['term4242', 'async databases']);
  const rows: Row[] = [];
  const missing = (
    await Promise.all(
      ['generics', 'typscript'].map(async (q) => ((await plannedIndexes(db, q)).length === 2 ? [] : [q])),
    )
  ).flat();
  for (const [who, headers] of [
    ['visitor', {}],
    ['learner', { Cookie: learner.cookie }],
  ] as const) {
    for (const q of searches) {
      const url = `${baseUrl}/api/store/search?q=${encodeURIComponent(q)}`;
      const times: number[] = [];
      let results = 0;
      for (let i = 0; i < 20; i++) {
        const at = performance.now();
        const answer = await fetch(url, { headers });
        if (!answer.ok) throw new Error(`search ${q}: ${answer.status} ${await answer.text()}`);
        // The most any of the 20 answered: one answer with a locked body's match is a leak.
        results = Math.max(results, ((await answer.json()) as { data: unknown[] }).data.length);
        times.push(performance.now() - at);
      }
      const noneExpected = who === 'visitor' && bodyOnly.has(q);
      const p95 = [...times].sort((a, b) => a - b)[Math.ceil(times.length * 0.95) - 1]!;
      rows.push({
        name: `search over ${lessons.toLocaleString('en-US')} lessons, ${who}, "${q}" (${results} results; p95 ${round(p95)} ms)`,
        value: round(median(times)),
        unit: 'ms p50',
        baseline: null,
        ratio: null,
        target: `p95 < 100 ms, ${noneExpected ? 'none found (nothing of a locked body leaks)' : 'results found'}`,
        met: p95 < 100 && (noneExpected ? results === 0 : results > 0),
      });
    }
  }
  let next = 0;
  const mixed = await load(
    {
      url: `${baseUrl}/api/store/search`,
      setupRequest: (request) => ({
        ...request,
        path: `/api/store/search?q=${encodeURIComponent(searches[next++ % searches.length]!)}`,
      }),
    },
    seconds,
  );
  rows.push({
    name: `search over ${lessons.toLocaleString('en-US')} lessons, the five searches mixed, 32 connections (p99 ${mixed.p99} ms); plans read both GIN indexes${missing.length ? ` except for ${missing.join(', ')}` : ''}`,
    value: round(mixed.rps, 0),
    unit: 'req/s',
    baseline: null,
    ratio: null,
    target: 'every answer 2xx, both GIN indexes used (from 5,000 lessons)',
    // A few hundred documents are read faster whole than through an index, and the planner rightly does so.
    met: mixed.failed === 0 && (missing.length === 0 || lessons < 5000),
  });
  return rows;
}
