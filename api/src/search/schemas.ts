import { z } from 'zod';

/** The longest search a reader may type: longer text is no longer a query, and costs the database more to parse. */
const MAX_SEARCH_LENGTH = 200;

/** GET /api/store/search?q=…: what the reader typed (1 to 200 characters once trimmed). */
export const SearchParams = z.object({
  q: z
    .string({ error: 'type something to search for' })
    .trim()
    .min(1, 'type something to search for')
    .max(MAX_SEARCH_LENGTH, `at most ${MAX_SEARCH_LENGTH} characters`)
    // PostgreSQL's text holds no NUL.
    .refine((q) => !q.includes('\u0000'), 'a search cannot contain a NUL character (U+0000)'),
});

/** What a result is: a product's sales page, a course's outline or a lesson. */
export type SearchResultType = 'product' | 'course' | 'lesson';

/** One result of GET /api/store/search. */
export interface SearchResult {
  type: SearchResultType;
  title: string;
  /** The storefront's address of it. */
  url: string;
  /**
   * A few words around what matched, as HTML whose only markup is <mark> around the matches (everything else
   * escaped); null when the reader may not read the text (a locked lesson) or there is none.
   */
  snippet: string | null;
}
