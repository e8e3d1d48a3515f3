import { formatHref } from 'mui-tiptap';
import { LINK_SCHEMES } from '../../../api/src/shared/rich-text-rules';

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/**
 * The scheme of a link the editor refuses (`javascript`, `data`, `vbscript`, any but http, https and mailto, as the
 * API's sanitizer), or null. Browsers ignore tabs, newlines and control characters in a scheme, so this does too;
 * `localhost:3000` is a host and port, not a scheme.
 */
export function refusedScheme(href: string): string | null {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is taken out
  const compact = href.replace(/[\u0000-\u0020\u007f]/g, '');
  const match = SCHEME.exec(compact);
  if (!match) return null;
  if (/^\d/.test(compact.slice(match[0].length))) return null;
  const scheme = match[1]!.toLowerCase();
  return (LINK_SCHEMES as readonly string[]).includes(scheme) ? null : scheme;
}

/**
 * The link dialog's formatting as mui-tiptap's (http:// before a bare host), except that a refused scheme stays as
 * typed: mui-tiptap would make `javascript:alert(1)` into `http://javascript:alert(1)`, which hides what was typed
 * and saves a broken link. The dialog then refuses it with a message (BodyEditor).
 */
export function formatLinkHref(value: string): string {
  return refusedScheme(value) ? value.trim() : formatHref(value);
}
