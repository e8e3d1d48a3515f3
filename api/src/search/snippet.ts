/** Marks ts_headline puts around each match: private-use characters, taken out of the text before it is marked. */
export const MATCH_START = '\uE000';
export const MATCH_END = '\uE001';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * A headline from the database as safe HTML: the text escaped whole (markup in a lesson is shown, never run),
 * then the match marks turned into <mark>, the only element a snippet has. Null for an empty one.
 */
export function snippetHtml(headline: string | null): string | null {
  const text = (headline ?? '').replace(/\s+/g, ' ').trim();
  if (!text.replaceAll(MATCH_START, '').replaceAll(MATCH_END, '').trim()) return null;
  let open = false;
  let html = '';
  for (const char of text) {
    if (char === MATCH_START && !open) {
      html += '<mark>';
      open = true;
    } else if (char === MATCH_END && open) {
      html += '</mark>';
      open = false;
    } else if (char !== MATCH_START && char !== MATCH_END) html += ESCAPES[char] ?? char;
  }
  return open ? `${html}</mark>` : html;
}
