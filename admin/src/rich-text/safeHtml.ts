import DOMPurify, { type WindowLike } from 'dompurify';
import {
  allowedUrl,
  CODE_CLASS,
  COLUMN_WIDTH,
  LINK_REL,
  RICH_TEXT_ATTRIBUTES,
  RICH_TEXT_TAGS,
} from '../../../api/src/shared/rich-text-rules';
import { embedAttributes } from '../../../api/src/shared/embeds';

const EVERY_ATTRIBUTE = [...new Set(Object.values(RICH_TEXT_ATTRIBUTES).flat())];

/** A column's style keeps only its pixel widths, as the API's sanitizer does. */
function columnStyle(style: string): string {
  return style
    .split(';')
    .map((declaration) => declaration.split(':').map((part) => part.trim()))
    .filter(([name, value]) => (name === 'width' || name === 'min-width') && value && COLUMN_WIDTH.test(value))
    .map(([name, value]) => `${name}:${value}`)
    .join(';');
}

/**
 * Defence in depth for showing stored rich text in the console: DOMPurify with the API's allow-list
 * (shared/rich-text-rules.ts), so a row written some other way (a seed, a migration, a manual fix) cannot run script
 * in a staff member's session. `window` is the browser's; tests pass jsdom's.
 */
export function createSafeHtml(window: WindowLike): (html: string) => string {
  const purify = DOMPurify(window);
  // An iframe stays only as an allowed embed with a title, rewritten to its canonical frame (shared/embeds.ts), as
  // the API's sanitizer does; anything else, srcdoc included, goes with whatever it holds.
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName !== 'iframe') return;
    const element = node as Element;
    const embed = embedAttributes(element.getAttribute('src'), element.getAttribute('title'));
    if (!embed) {
      element.remove();
      return;
    }
    for (const name of element.getAttributeNames()) element.removeAttribute(name);
    for (const [name, value] of Object.entries(embed)) element.setAttribute(name, value);
    element.textContent = '';
  });
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    const tag = node.nodeName.toLowerCase();
    const name = data.attrName;
    if (!RICH_TEXT_ATTRIBUTES[tag]?.includes(name)) data.keepAttr = false;
    else if (tag === 'iframe')
      return; // set whole by the element hook above
    else if (name === 'href' || name === 'src') data.keepAttr = allowedUrl(data.attrValue, tag === 'img' ? 'img' : 'a');
    else if (name === 'class')
      data.attrValue = data.attrValue
        .split(/\s+/)
        .filter((c) => CODE_CLASS.test(c))
        .join(' ');
    else if (name === 'style') data.attrValue = columnStyle(data.attrValue);
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A') node.setAttribute('rel', LINK_REL);
    for (const name of ['class', 'style']) if (node.getAttribute(name) === '') node.removeAttribute(name);
  });
  const config = { ALLOWED_TAGS: [...RICH_TEXT_TAGS], ALLOWED_ATTR: EVERY_ATTRIBUTE, ALLOW_DATA_ATTR: false };
  return (html) => purify.sanitize(html, config);
}

let browserSafeHtml: ((html: string) => string) | undefined;

/** The HTML with anything outside the rich-text allow-list removed (parsed inertly: nothing loads or runs). */
export function safeHtml(html: string): string {
  browserSafeHtml ??= createSafeHtml(globalThis as unknown as WindowLike); // the browser's window
  return browserSafeHtml(html);
}
