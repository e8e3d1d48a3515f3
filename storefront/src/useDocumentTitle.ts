import { useHead } from './head';

/** Sets the tab's title while the page shows, and puts the previous one back when it goes (server-rendered too). */
export function useDocumentTitle(title: string) {
  useHead({ title });
}
