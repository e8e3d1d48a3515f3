const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text made safe inside HTML (or XML) text and quoted attribute values: the five characters that could end either
 * are written as entities, so a course named `</title><script>` or `" onload="` stays words. One rule for the
 * storefront's pages, the sitemap and every email.
 */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
