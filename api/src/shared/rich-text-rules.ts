import { EMBED_ATTRIBUTES } from './embeds';

/**
 * What stored rich text may contain: the editor's headings, lists, links, code, images by URL, tables and embeds
 * from the allow-list of shared/embeds.ts (each rewritten to its canonical sandboxed frame, or dropped). One
 * allow-list for the API, which sanitizes every body it stores (learning/sanitize.ts, sanitize-html), and for the
 * console, which sanitizes again before showing one (rich-text/safeHtml.ts, DOMPurify) in case a row was written
 * some other way. No dependencies, so both sides take it as it is.
 */
export const RICH_TEXT_TAGS = [
  'h1',
  'h2',
  'h3',
  'h4',
  'p',
  'br',
  'hr',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'img',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'colgroup',
  'col',
  'span',
  'iframe',
] as const;

/** Attributes per tag; every other attribute (event handlers, style outside col) is dropped. */
export const RICH_TEXT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'title', 'target', 'rel'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  th: ['colspan', 'rowspan', 'colwidth'],
  td: ['colspan', 'rowspan', 'colwidth'],
  col: ['style'],
  code: ['class'],
  pre: ['class'],
  iframe: EMBED_ATTRIBUTES,
};

/** URL schemes links may use; images load only over http(s). Relative URLs stay (this site); protocol-relative ones do not. */
export const LINK_SCHEMES = ['http', 'https', 'mailto'] as const;
export const IMAGE_SCHEMES = ['http', 'https'] as const;

/** Links open without handing the opener to the target. */
export const LINK_REL = 'noopener noreferrer';

/** Code blocks keep their language class; table columns keep their pixel widths. */
export const CODE_CLASS = /^language-[\w-]+$/;
export const COLUMN_WIDTH = /^\d+px$/;

/** Whether a URL may stand in `href` (links) or `src` (images). */
export function allowedUrl(url: string, tag: 'a' | 'img'): boolean {
  const value = url.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (scheme) return (tag === 'a' ? LINK_SCHEMES : IMAGE_SCHEMES).includes(scheme as never);
  return !value.startsWith('//');
}
