import { embedOf } from '../../../api/src/shared/embeds';

/**
 * Stored rich text with each embed shown as a card naming it, for the console's pages: the console's CSP frames no
 * other site (only the storefront's lesson pages do), so a live frame would only be a blocked box. Parsed inertly
 * (DOMParser loads nothing); the card's words are text, never markup.
 */
export function withEmbedCards(html: string, describe: (provider: string, title: string) => string): string {
  if (!html.includes('<iframe')) return html;
  const document = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  for (const frame of document.querySelectorAll('iframe')) {
    const card = document.createElement('p');
    card.className = 'rich-text-embed';
    card.textContent = describe(embedOf(frame.getAttribute('src'))?.provider.name ?? '', frame.title);
    frame.replaceWith(card);
  }
  return document.body.innerHTML;
}
