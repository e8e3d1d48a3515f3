import { createContext, useContext, useEffect } from 'react';
import { pageTitle } from '../../api/src/shared/page-title';
import { SchoolContext } from './school';

export const SITE_DESCRIPTION = 'Courses you can study at your own pace.';

/** What a page says about itself in the document's <head> (and the server's answer) beyond its content. */
export interface Head {
  /**
   * The page's title: the tab's and <title> add the school's name (pageTitle); og:title and twitter:title are this
   * alone (og:site_name names the school).
   */
  title?: string;
  /** A sentence or two for search results and link previews. */
  description?: string | null;
  /** The page's own path when other addresses show it too (a product by its id): the canonical URL's path. */
  path?: string;
  /** An absolute image URL for link previews. */
  image?: string | null;
  /** Open Graph's og:type ('website' unless said). */
  type?: 'website' | 'product' | 'article';
  /** schema.org structured data, sent as JSON-LD; given the site's origin (absolute URLs). Server only. */
  jsonLd?: ((origin: string) => Record<string, unknown>) | null;
  /** The HTTP status of the server's answer: 404 for a page that does not exist. */
  status?: number;
  /** Not for search engines' indexes (an invite link). */
  noindex?: boolean;
  /**
   * What a visitor sees here is not what a signed-in reader may see (a paid lesson: locked to a visitor, open to its
   * holder). Visitors, search engines and link previews get the server's render; a request with a session gets the
   * page the browser renders for them, so a holder never sees the lock first.
   */
  visitorsOnly?: boolean;
  /**
   * What this address shows depends on who is signed in (a paid lesson): the server sends the page without
   * content and the browser renders it.
   */
  clientOnly?: boolean;
}

/** The server render's collector: the deepest page's words win (a page not found inside a product page). */
export const HeadContext = createContext<((head: Head) => void) | null>(null);

/**
 * Says what the page is. In the browser this sets the tab's title while the page shows (and puts the previous one
 * back when it goes); on the server it fills the page's <head> and status.
 */
export function useHead(head: Head) {
  const collect = useContext(HeadContext);
  const schoolName = useContext(SchoolContext)?.name;
  collect?.(head);
  const { title } = head;
  useEffect(() => {
    if (title === undefined) return;
    const previous = document.title;
    document.title = schoolName ? pageTitle(title, schoolName) : title;
    return () => {
      document.title = previous;
    };
  }, [title, schoolName]);
}
