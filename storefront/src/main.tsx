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
        <App />
      </PrerenderContext>,
    );
  });
  // The answers are this address's: React may hydrate its parts (each Suspense boundary) after the rest commits, so
  // they stay until the first move to another page (wouter's pushState, back or forward), then hooks load as usual.
  for (const event of ['pushState', 'popstate']) addEventListener(event, prerender.done, { once: true });
} else {
  createRoot(container).render(<App />);
}
