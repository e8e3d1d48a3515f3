import { productPath, type StoreProduct } from '../api/catalog';
import type { Head } from '../head';

/**
 * The home page's head: the courses on sale as Google's course list reads them (an ItemList of ListItems, each a
 * position and a course page's URL: https://developers.google.com/search/docs/appearance/structured-data/course),
 * in the order the page shows them. Apart from seo.ts, whose Course markup the home page does not need.
 */
export function homeHead(products: StoreProduct[], head: Pick<Head, 'title' | 'description'>): Head {
  return {
    ...head,
    jsonLd: products.length
      ? (origin) => ({
          '@context': 'https://schema.org',
          '@type': 'ItemList',
          itemListElement: products.map((p, i) => ({
            '@type': 'ListItem',
            position: i + 1,
            url: new URL(productPath(p), origin).href,
          })),
        })
      : null,
  };
}
