import { useSyncExternalStore } from 'react';
import type { TranslationMessages } from 'react-admin';

type Listener = () => void;

const onLoad: ((messages: TranslationMessages) => Promise<void>)[] = [];
const subscribers = new Set<Listener>();
let loading: Promise<void> | undefined;
let loaded = false;

/** Runs once the whole catalog has loaded, before any screen shows (the i18n provider switches to it). */
export function whenCatalogLoads(use: (messages: TranslationMessages) => Promise<void>): void {
  onLoad.push(use);
}

/**
 * The whole catalog (every screen's labels): fetched once, by the first screen opened, beside the screen's own code.
 * A failed fetch is tried again by the next screen.
 */
export function loadCatalog(): Promise<void> {
  loading ??= import('./index')
    .then(async ({ messages }) => {
      for (const use of onLoad) await use(messages);
      loaded = true;
      for (const subscriber of subscribers) subscriber();
    })
    .catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  return loading;
}

/** Whether the whole catalog is in: the frame, drawn before it, draws again with it. */
export function useCatalogLoaded(): boolean {
  return useSyncExternalStore(
    (subscriber) => {
      subscribers.add(subscriber);
      return () => subscribers.delete(subscriber);
    },
    () => loaded,
  );
}
