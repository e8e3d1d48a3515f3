import { Suspense, lazy, type ComponentType } from 'react';
import { loadCatalog } from '../i18n/catalog';
import { PageLoading } from './PageLoading';

type ScreenName<M> = { [K in keyof M]: M[K] extends ComponentType ? K : never }[keyof M];

/**
 * A screen whose code loads when it is first opened (a resource's list, show, edit or create, a custom page), so the
 * console's first load carries only its frame. `load` is a dynamic import of the screen's module; `name` its export.
 * The whole catalog of labels comes with the first screen, fetched beside its code.
 */
export function lazyScreen<M, K extends ScreenName<M>>(load: () => Promise<M>, name: K) {
  const Screen = lazy(async () => {
    const [screens] = await Promise.all([load(), loadCatalog()]);
    return { default: screens[name] as ComponentType };
  });
  function LazyScreen() {
    return (
      <Suspense fallback={<PageLoading />}>
        <Screen />
      </Suspense>
    );
  }
  LazyScreen.displayName = `Lazy(${String(name)})`;
  return LazyScreen;
}
