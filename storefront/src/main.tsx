import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, routeFor } from './App';
import { getSchool, type SiteSchool } from './api/school';
import { applyDisplay, rememberedDisplay } from './display';
import { PrerenderContext, SEEDS_ELEMENT_ID, seededPrerender, type Seed } from './prerender';
import { SchoolContext, sentSchool } from './school';
import './styles.css';
import './site-frame.css';

/*
 * The browser's entry. A public page comes rendered by the server (entry-server.tsx) with what its loads answered:
 * React hydrates that HTML with the same answers. The learner's own pages (and `vite` in development) come as an
 * empty shell, rendered here.
 */

// Before the first paint: no flash of the light theme for someone who chose dark.
applyDisplay(rememberedDisplay());

const container = document.getElementById('root')!;
const seeds = document.getElementById(SEEDS_ELEMENT_ID);

function start(school: SiteSchool) {
  if (!seeds) {
    createRoot(container).render(
      <SchoolContext value={school}>
        <App />
      </SchoolContext>,
    );
    return;
  }
  const prerender = seededPrerender(JSON.parse(seeds.textContent ?? '{}') as Record<string, Seed>);
  // The page's chunk first, so the hydrating render shows the page as the server did (no "Loading the page…").
  void (routeFor(location.pathname)?.preload() ?? Promise.resolve()).finally(() => {
    hydrateRoot(
      container,
      <SchoolContext value={school}>
        <PrerenderContext value={prerender}>
          <App />
        </PrerenderContext>
      </SchoolContext>,
    );
  });
  // The answers are this address's: React may hydrate its parts (each Suspense boundary) after the rest commits, so
  // they stay until the first move to another page (wouter's pushState, back or forward), then hooks load as usual.
  for (const event of ['pushState', 'popstate']) addEventListener(event, prerender.done, { once: true });
}

/** While the school's settings cannot be read (the database down), the page's own title names the site. */
const unknownSchool = (): SiteSchool => ({
  name: document.title,
  legalName: '',
  address: '',
  supportEmail: null,
  logo: null,
  accentColor: '#12355b',
  updatedAt: '',
});

// The school comes with every page the server answers; only the development server's page (vite) asks for it first.
const sent = sentSchool();
if (sent) start(sent);
else getSchool().then(start, () => start(unknownSchool()));
