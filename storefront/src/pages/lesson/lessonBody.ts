/*
 * Lesson bodies often open with the lesson's title as a heading (the demo lessons do, and so does a body written in
 * the console that starts "## Title"). The page's <h1> already shows the title, so that first heading would say it
 * twice, to the eye and to screen readers. Plain string work, no DOM: the body is HTML the API already sanitized.
 */

const LEADING_HEADING = /^\s*<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1>\s*/i;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/** A heading's words as read: tags dropped, the common entities decoded, spaces and case evened out. */
function wordsOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** The body without a first heading that only repeats the lesson's title; any other body as it is. */
export function withoutRepeatedTitle(body: string, title: string): string {
  const heading = LEADING_HEADING.exec(body);
  if (!heading || wordsOf(heading[2]!) !== wordsOf(title)) return body;
  return body.slice(heading[0].length);
}
