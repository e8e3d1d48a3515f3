import type { ReadCaches } from '../cache/read-cache';
import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import { entitlementFrom, type Viewer } from '../learning/access';
import { openingOf, stillClosed } from '../learning/drip/release';
import { zoneNamed } from '../learning/drip/schedule';
import type { LearningService } from '../learning/learning';
import * as queries from './queries';
import type { SearchResult } from './schemas';
import { snippetHtml } from './snippet';
import { searchTerms } from './terms';

/** The most results a search answers with. */
const SEARCH_LIMIT = 20;
/** Matches read before access is known: locked lessons matched by their body alone are dropped from them. */
const CANDIDATES = SEARCH_LIMIT * 4;

/** Where a lesson found is shown to this reader, and whether they may read it; null: not for them at all. */
interface LessonFound {
  url: string;
  open: boolean;
}

/**
 * Search over products, courses and lessons (docs/domain.md §24): ranked in PostgreSQL, then the page's lessons judged
 * together by the lesson page's own rules (`learning/access.ts` openLesson: purchases, memberships, seats, free
 * lessons, scheduled release), from one statement's facts and the cached outlines. A lesson the reader may not open
 * is found only by its title and shows no snippet; nothing of its body leaves the database for them.
 */
export function searchService({
  db,
  clock,
  learning,
  caches,
}: {
  db: Db;
  clock: Clock;
  learning: Pick<LearningService, 'outlineOf'>;
  caches: Pick<ReadCaches, 'cached'>;
}) {
  /**
   * The outlines lessons are judged by (the lesson page's own), answered while a stale one reloads behind: a search
   * whose candidates sit in many courses (a visitor's word found only in locked lessons' bodies) waits for none.
   */
  const outlineOf = caches.cached((courseId) => learning.outlineOf(courseId), { revalidate: true });

  /**
   * The first course (nearest first) where the reader may open the lesson, else the first where they see it locked
   * or waiting for its release; a course whose published outline does not hold it is skipped (as the page's 404).
   */
  async function lessonFound(
    lessonId: string,
    lessonSlug: string,
    places: queries.Place[],
    viewer: Viewer,
    timeZone: string,
    now: Date,
  ): Promise<LessonFound | null> {
    let locked: string | null = null;
    for (const place of places) {
      const lesson = (await outlineOf(place.courseId)).lessons.find((l) => l.id === lessonId);
      if (!lesson) continue;
      const url = `/courses/${encodeURIComponent(place.courseSlug)}/lessons/${encodeURIComponent(lessonSlug)}`;
      const entitled = lesson.free || entitlementFrom(place.purchases, viewer).full;
      const waiting = entitled && stillClosed(openingOf(lesson.releases, { start: place.start, timeZone }), now);
      if (entitled && !waiting) return { url, open: true };
      locked ??= url;
    }
    return locked ? { url: locked, open: false } : null;
  }

  return {
    async search(q: string, viewer: Viewer): Promise<SearchResult[]> {
      const terms = searchTerms(q);
      if (!terms) return [];
      const now = clock.now();
      const found = await queries.candidates(db, { terms, text: q, limit: CANDIDATES });
      const { byLesson, timeZone } = await queries.places(
        db,
        found.filter((c) => c.type === 'lesson').map((c) => c.id),
        viewer.user?.id ?? null,
        now,
      );
      const zone = zoneNamed(viewer.user ? timeZone : null);
      // Each course's outline loaded once and all at once (cached reads), not one after another as lessons are judged.
      await Promise.all([...new Set([...byLesson.values()].flat().map((p) => p.courseId))].map((id) => outlineOf(id)));
      const results: (SearchResult & { id: string; readable: boolean })[] = [];
      for (const c of found) {
        if (results.length === SEARCH_LIMIT) break;
        const where =
          c.type === 'product'
            ? { url: `/products/${encodeURIComponent(c.slug)}`, open: true }
            : c.type === 'course'
              ? { url: `/courses/${encodeURIComponent(c.slug)}`, open: true }
              : await lessonFound(c.id, c.slug, byLesson.get(c.id) ?? [], viewer, zone, now);
        // A lesson the reader cannot open is found by its title only: a match in its body would tell of the body.
        if (!where || (!where.open && !c.titleMatch)) continue;
        results.push({ id: c.id, type: c.type, title: c.title, url: where.url, snippet: null, readable: where.open });
      }
      const lines = await queries.headlines(
        db,
        results.filter((r) => r.readable).map((r) => r.id),
        terms,
      );
      return results.map(({ type, title, url, id }) => ({
        type,
        title,
        url,
        snippet: snippetHtml(lines.get(id) ?? null),
      }));
    },
  };
}

export type SearchService = ReturnType<typeof searchService>;
