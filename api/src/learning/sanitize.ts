import { createRequire } from 'node:module';
import type sanitizeHtml from 'sanitize-html';
import {
  CODE_CLASS,
  COLUMN_WIDTH,
  IMAGE_SCHEMES,
  LINK_REL,
  LINK_SCHEMES,
  RICH_TEXT_ATTRIBUTES,
  RICH_TEXT_TAGS,
} from '../shared/rich-text-rules';
import { embedAttributes } from '../shared/embeds';

/** A tag no allow-list names: what an iframe that is not an allowed embed becomes, so it is dropped. */
const DROPPED = 'dropped-frame';

/** The shared rich-text allow-list (shared/rich-text-rules.ts) as sanitize-html options. */
const options = (sanitize: typeof sanitizeHtml): sanitizeHtml.IOptions => ({
  allowedTags: [...RICH_TEXT_TAGS],
  allowedAttributes: Object.fromEntries(Object.entries(RICH_TEXT_ATTRIBUTES).map(([tag, names]) => [tag, [...names]])),
  allowedSchemes: [...LINK_SCHEMES],
  allowedSchemesByTag: { img: [...IMAGE_SCHEMES], iframe: ['https'] },
  allowProtocolRelative: false,
  allowedClasses: { code: [CODE_CLASS], pre: [CODE_CLASS] },
  allowedStyles: { col: { 'min-width': [COLUMN_WIDTH], width: [COLUMN_WIDTH] } },
  // An iframe and whatever it holds (srcdoc fallback text included) goes, unless it is an allowed embed with a title.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', DROPPED],
  textFilter: (text, tag) => (tag === 'iframe' ? '' : text),
  transformTags: {
    a: sanitize.simpleTransform('a', { rel: LINK_REL }),
    // An embed keeps only its canonical attributes (shared/embeds.ts): its sandbox, lazy loading, title.
    iframe: (_tag, attribs) => {
      const embed = embedAttributes(attribs.src, attribs.title);
      return embed ? { tagName: 'iframe', attribs: embed } : { tagName: DROPPED, attribs: {} };
    },
  },
});

// sanitize-html and its parser load with the first lesson body, not with the server; require() keeps this synchronous.
const require = createRequire(import.meta.url);
let loaded: { sanitize: typeof sanitizeHtml; options: sanitizeHtml.IOptions } | undefined;

export function sanitizeRichText(html: string): string {
  loaded ??= (() => {
    const sanitize = require('sanitize-html') as typeof sanitizeHtml;
    return { sanitize, options: options(sanitize) };
  })();
  return loaded.sanitize(html, loaded.options);
}
