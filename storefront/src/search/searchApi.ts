import type * as Search from '@contract/search/schemas';
import type { ListAnswer, Wire } from '@contract/shared/wire';
import { getJson } from '../api/client';

/** GET /api/store/search (in `data`): a product, course or lesson found, its snippet HTML with only <mark> in it. */
export type SearchResult = Wire<Search.SearchResult>;

export async function search(q: string): Promise<SearchResult[]> {
  return (await getJson<ListAnswer<SearchResult>>(`/api/store/search?q=${encodeURIComponent(q)}`)).data;
}

/** The results page's address for a search. */
export const searchPath = (q: string) => `/search?q=${encodeURIComponent(q)}`;
