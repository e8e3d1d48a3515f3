import { Suspense, lazy, type ComponentType } from 'react';
import { PageLoading } from './PageLoading';

type ScreenName<M> = { [K in keyof M]: M[K] extends ComponentType ? K : never }[keyof M];

/**
 * A screen whose code loads when it is first opened (a resource's list, show, edit or create, a custom page), so the
 * console's first load carries only its frame. `load` is a dynamic import of the screen's module; `name` its export.
 */
export function lazyScreen<M, K extends ScreenName<M>>(load: () => Promise<M>, name: K) {
  const Screen = lazy(async () => ({ default: (await load())[name] as ComponentType }));
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
