import { createContext, useContext } from 'react';
import type { SiteSchool } from './api/school';

/*
 * The school whose site this is: its name titles every page and heads the header and footer, its logo is the
 * header's, its contact and legal texts are the footer's pages. The server sends it with every page (a JSON block,
 * SCHOOL_ELEMENT_ID), so the first render in the browser shows the same school as the server's HTML.
 */

/** The id of the JSON block that carries the school in the page. */
const SCHOOL_ELEMENT_ID = 'school-data';

/** Set by the server render and the browser's entry around the whole app; null only outside it. */
export const SchoolContext = createContext<SiteSchool | null>(null);

export function useSchool(): SiteSchool {
  const school = useContext(SchoolContext);
  if (!school) throw new Error('useSchool outside SchoolContext: the entries put the school around the app');
  return school;
}

/** The school the server sent with the page; null when it sent none (the development server's page). */
export function sentSchool(): SiteSchool | null {
  const block = document.getElementById(SCHOOL_ELEMENT_ID);
  return block ? (JSON.parse(block.textContent ?? 'null') as SiteSchool | null) : null;
}
