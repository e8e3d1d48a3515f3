/**
 * A storefront page's title as the tab and search results show it: the page's own, then the school's name
 * ("Generics — Typed Academy"); the school's name alone for a page that is the school (or says nothing).
 * The same rule for the server's <title> and the browser's document.title.
 */
export function pageTitle(title: string | undefined, schoolName: string): string {
  if (!title || title === schoolName) return schoolName;
  return `${title} — ${schoolName}`;
}
