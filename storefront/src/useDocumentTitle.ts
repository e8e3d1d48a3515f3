import { useEffect } from 'react';

/** Sets the tab's title while the page shows, and puts the previous one back when it goes. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    const previous = document.title;
    document.title = title;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
