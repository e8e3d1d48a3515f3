import type { Db } from '../db/connection';
import { STARTS } from '../learning/drip/queries';
import { purchasesOpeningOf, type OpeningPurchase } from '../learning/queries';
import { MATCH_END, MATCH_START } from './snippet';
import type { SearchResultType } from './schemas';

// The SQL of search (docs/domain.md §24). Documents are kept by triggers (migrations/20261205020000); these read them.

/** A document that matched, before the reader's access is known. */
export interface Candidate {
  id: string;
  type: SearchResultType;
  title: string;
  /** The product's or content's slug (its id without one). */
  slug: string;
  /** Matched by its title (its words or, for a typo, its trigrams): all a reader who may not open it can match. */
  titleMatch: boolean;
}

/**
 * Word similarity a title needs to a search for a typo to find it: lower than pg_trgm's 0.6, so one letter missing
 * from a long word ("typscript") still finds it, high enough that unrelated titles do not.
 */
const TYPO_SIMILARITY = 0.5;

/**
 * The statement behind `candidates`, bound by name (terms, typed, limit, pool): EXPLAIN reads it too. The words' matches
 * come first, through the documents' GIN index: ranked cheaply by their weights alone, then, among those that could
 * still reach the page, by the weights plus the title's closeness (a title can gain at most 0.3, so a match ranked
 * more than that below the page's last is out, and its title is never compared). Only when the words find fewer than
 * a page are titles matched by trigrams (a typo), through the titles' GIN index.
 */
export const CANDIDATES_SQL = `WITH query AS (
       SELECT to_tsquery('search_english', :terms) AS words, search_unaccent(lower(:typed)) AS text
     ),
     pool AS MATERIALIZED (
       SELECT d.id, d.title, d.title_key, ts_rank(d.document, query.words) AS rank
         FROM search_documents d, query
        WHERE d.listed AND d.document @@ query.words
        ORDER BY rank DESC, d.title, d.id
        LIMIT :pool
     ),
     words AS MATERIALIZED (
       SELECT p.id, p.title, p.rank + 0.3 * word_similarity(query.text, p.title_key) AS score
         FROM pool p, query
        WHERE p.rank >= (SELECT min(top.rank) - 0.3 FROM (SELECT rank FROM pool ORDER BY rank DESC LIMIT :limit) top)
        ORDER BY score DESC, p.title, p.id
        LIMIT :limit
     ),
     typos AS (
       SELECT d.id, d.title, ts_rank(d.document, query.words) + 0.3 * word_similarity(query.text, d.title_key) AS score
         FROM search_documents d, query
        WHERE (SELECT count(*) FROM words) < :limit
          AND d.listed AND query.text <% d.title_key AND NOT d.document @@ query.words
        ORDER BY score DESC, d.title, d.id
        LIMIT :limit
     )
   SELECT d.id, d.kind AS type, d.title, coalesce(d.slug, CAST(d.id AS text)) AS slug,
          (ts_filter(d.document, '{a}') @@ query.words OR query.text <% d.title_key) AS "titleMatch"
     FROM (SELECT * FROM words UNION ALL SELECT * FROM typos) found
     JOIN search_documents d ON d.id = found.id, query
    ORDER BY found.score DESC, found.title, found.id
    LIMIT :limit`;

/**
 * Matches ranked by their words before a title's closeness is weighed: enough that the page's best are among them
 * (the bound above keeps them) unless hundreds tie, where the order among equals is the title's.
 */
const POOL = 400;

/**
 * The documents matching the search's terms or, by trigrams, its text, best first: a title match outranks a summary's,
 * which outranks a body's (weights A, B, C), and a title close to the text gains on one merely containing a word.
 * Only listed documents: active products, published public courses and lessons not deleted (whether a lesson sits in
 * a course a reader may see is decided after, with their access). Reads the documents alone, through both GIN indexes.
 */
export async function candidates(db: Db, search: { terms: string; text: string; limit: number }): Promise<Candidate[]> {
  const { terms, text, limit } = search;
  return db.transaction(async (trx) => {
    await trx.raw(`SET LOCAL pg_trgm.word_similarity_threshold = ${TYPO_SIMILARITY}`);
    const { rows } = await trx.raw(CANDIDATES_SQL, { terms, typed: text, limit, pool: Math.max(POOL, limit) });
    return rows as Candidate[];
  });
}

/** A published public course a found lesson sits in, and what the reader has of it. */
export interface Place {
  courseId: string;
  courseSlug: string;
  /** The reader's purchases and memberships that may open the course (none for a visitor). */
  purchases: OpeningPurchase[];
  /** When the reader's access to the course began (scheduled release counts from it); null when nothing opens it. */
  start: Date | null;
}

/**
 * For each lesson, the published public courses holding it (up to six links up), nearest first, each with the reader's
 * purchases and memberships of it and when their access began; and the time zone their settings name. One statement
 * for the whole page, however many lessons and courses (learning's own rules then judge each lesson, without queries).
 */
export async function places(
  db: Db,
  lessonIds: string[],
  userId: string | null,
  now: Date,
): Promise<{ byLesson: Map<string, Place[]>; timeZone: string | null }> {
  const byLesson = new Map<string, Place[]>();
  if (lessonIds.length === 0) return { byLesson, timeZone: null };
  const { rows } = await db.raw(
    `WITH RECURSIVE up AS (
       SELECT resource_id AS lesson_id, resource_of_id AS id, 1 AS depth
         FROM content_resource_resources WHERE resource_id = ANY(CAST(:lessonIds AS uuid[])) AND deleted_at IS NULL
       UNION ALL
       SELECT up.lesson_id, l.resource_of_id, up.depth + 1 FROM content_resource_resources l JOIN up ON l.resource_id = up.id
        WHERE l.deleted_at IS NULL AND up.depth < 6
     ),
     placed AS (
       SELECT up.lesson_id, r.id AS course_id, coalesce(r.fields->>'slug', CAST(r.id AS text)) AS course_slug,
              min(up.depth) AS depth
         FROM up JOIN content_resources r ON r.id = up.id
        WHERE r.type = 'course' AND r.deleted_at IS NULL AND r.fields->>'state' = 'published'
          AND coalesce(r.fields->>'visibility', 'public') = 'public'
        GROUP BY up.lesson_id, r.id
     ),
     courses AS (
       SELECT c.course_id,
              (SELECT coalesce(json_agg(o), '[]') FROM (${purchasesOpeningOf('c.course_id')}) o) AS purchases,
              (SELECT min(o.started_at) FROM (${STARTS}) o WHERE o.course_id = c.course_id AND o.user_id = :userId) AS start
         FROM (SELECT DISTINCT course_id FROM placed) c
     )
     SELECT p.lesson_id AS "lessonId", p.course_id AS "courseId", p.course_slug AS "courseSlug", c.purchases, c.start,
            (SELECT CASE WHEN jsonb_typeof(z.fields->'timeZone') = 'string' AND length(z.fields->>'timeZone') <= 64
                         THEN z.fields->>'timeZone' END
               FROM user_prefs z WHERE z.user_id = :userId AND z.type = 'global' AND z.resource_id IS NULL
              LIMIT 1) AS "timeZone"
       FROM placed p JOIN courses c ON c.course_id = p.course_id
      ORDER BY p.lesson_id, p.depth, p.course_id`,
    { lessonIds, userId, now },
  );
  let timeZone: string | null = null;
  for (const row of rows as (Place & { lessonId: string; timeZone: string | null })[]) {
    const { lessonId, timeZone: zone, ...place } = row;
    timeZone = zone;
    byLesson.set(lessonId, [...(byLesson.get(lessonId) ?? []), place]);
  }
  return { byLesson, timeZone };
}

const HEADLINE_OPTIONS = `StartSel="${MATCH_START}", StopSel="${MATCH_END}", MaxWords=28, MinWords=10, MaxFragments=2, FragmentDelimiter=" … "`;

/**
 * Words around the matches in each document's readable text, match marks around each match (snippet.ts makes them
 * <mark>): a product's description, a course's, a lesson's description and body. Only for the ids given: the
 * caller passes only what the reader may read. The marks' own characters are taken out of the text first.
 */
export async function headlines(db: Db, ids: string[], terms: string): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.raw(
    `SELECT d.id, ts_headline('search_english',
              translate(CASE d.kind WHEN 'product' THEN coalesce(p.description, '')
                                    WHEN 'course' THEN coalesce(r.fields->>'description', '')
                                    ELSE concat_ws(' ', r.fields->>'description', search_plain_text(r.fields->>'body')) END,
                        ?, ''),
              to_tsquery('search_english', ?), ?) AS headline
       FROM search_documents d
       LEFT JOIN content_resources r ON r.id = d.content_id
       LEFT JOIN products p ON p.id = d.product_id
      WHERE d.id = ANY(?::uuid[])`,
    [MATCH_START + MATCH_END, terms, HEADLINE_OPTIONS, ids],
  );
  return new Map((rows as { id: string; headline: string | null }[]).map((r) => [r.id, r.headline]));
}
