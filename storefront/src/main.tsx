import { useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, routeFor } from './App';
import { applyDisplay, rememberedDisplay } from './display';
import { PrerenderContext, SEEDS_ELEMENT_ID, seededPrerender, type Seed } from './prerender';
import './styles.css';

/*
 * The browser's entry. A public page comes rendered by the server (entry-server.tsx) with what its loads answered:
 * React hydrates that HTML with the same answers. The learner's own pages (and `vite` in development) come as an
 * empty shell, rendered here.
 */

// Before the first paint: no flash of the light theme for someone who chose dark.
applyDisplay(rememberedDisplay());

const container = document.getElementById('root')!;
const seeds = document.getElementById(SEEDS_ELEMENT_ID);

if (seeds) {
  const prerender = seededPrerender(JSON.parse(seeds.textContent ?? '{}') as Record<string, Seed>);
  // The page's chunk first, so the hydrating render shows the page as the server did (no "Loading the page…").
  void (routeFor(location.pathname)?.preload() ?? Promise.resolve()).finally(() => {
    hydrateRoot(
      container,
      <PrerenderContext value={prerender}>
        <Hydrated done={prerender.done}>
          <App />
        </Hydrated>
      </PrerenderContext>,
    );
  });
} else {
  createRoot(container).render(<App />);
}

/** Its effect runs once the whole page has hydrated (effects run children first): the answers were used then. */
function Hydrated({ done, children }: { done: () => void; children: ReactNode }) {
  useEffect(done, [done]);
  return children;
}
