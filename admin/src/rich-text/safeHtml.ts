/**
 * Defence in depth for showing stored rich text in the console. The API already sanitizes every body it stores
 * (learning/sanitize.ts); this keeps the same allow-list in the browser so that a row written some other way
 * (a seed, a migration, a manual fix) cannot run script in a staff member's session.
 */
const ALLOWED_TAGS = new Set([
  'h1', 'h2', 'h3', 'h4', 'p', 'br', 'hr', 'strong', 'b', 'em', 'i', 'u', 's', 'code', 'pre', 'blockquote',
  'ul', 'ol', 'li', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'colgroup', 'col', 'span',
]);
const ALLOWED_ATTRIBUTES: Record<string, readonly string[]> = {
  a: ['href', 'title', 'target'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  th: ['colspan', 'rowspan'],
  td: ['colspan', 'rowspan'],
  code: ['class'],
  pre: ['class'],
};
/** Elements removed with their content (the others are unwrapped: their text stays). */
const DROP_WITH_CONTENT = new Set(['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript', 'svg', 'math', 'textarea', 'select']);

function safeUrl(value: string, tag: string): boolean {
  const url = value.trim();
  if (/^https?:\/\//i.test(url)) return true;
  if (tag === 'a' && /^mailto:/i.test(url)) return true;
  return tag === 'a' && /^[/#](?!\/)/.test(url);
}

function clean(node: Node, doc: Document): void {
  for (const child of [...node.childNodes]) {
    if (child.nodeType === Node.COMMENT_NODE) {
      child.remove();
      continue;
    }
    if (child.nodeType !== Node.ELEMENT_NODE) continue;
    const element = child as Element;
    const tag = element.tagName.toLowerCase();
    if (DROP_WITH_CONTENT.has(tag)) {
      element.remove();
      continue;
    }
    clean(element, doc);
    if (!ALLOWED_TAGS.has(tag)) {
      element.replaceWith(...element.childNodes);
      continue;
    }
    const allowed = ALLOWED_ATTRIBUTES[tag] ?? [];
    for (const attribute of [...element.attributes]) {
      const name = attribute.name.toLowerCase();
      const keep = allowed.includes(name) && (name !== 'href' && name !== 'src' ? true : safeUrl(attribute.value, tag));
      if (!keep) element.removeAttribute(attribute.name);
    }
    if (tag === 'a') element.setAttribute('rel', 'noopener noreferrer');
  }
}

/** The HTML with anything outside the rich-text allow-list removed (parsed inertly: nothing loads or runs). */
export function safeHtml(html: string): string {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}</body>`, 'text/html');
  clean(doc.body, doc);
  return doc.body.innerHTML;
}
