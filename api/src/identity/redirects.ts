/** Only paths on this site: no other origin, no protocol-relative `//host`, no backslash tricks. */
export function safeRedirect(target: unknown, fallback = '/'): string {
  if (typeof target !== 'string' || target.length > 2000) return fallback;
  if (!target.startsWith('/') || target.startsWith('//') || target.includes('\\') || /[\u0000-\u001f\u007f]/.test(target)) return fallback;
  return target;
}
