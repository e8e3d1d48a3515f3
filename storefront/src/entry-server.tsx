import { AsyncLocalStorage } from 'node:async_hooks';
import { renderToString } from 'react-dom/server';
import { App, routeFor } from './App';
import { setTransport } from './api/client';
import type { SiteSchool } from './api/school';
import { HeadContext, type Head } from './head';
import { PrerenderContext, seedOf, stateOf, type Prerender, type Seed } from './prerender';
import { SchoolContext } from './school';

/*
 * The server's entry (vite build --ssr): renders a public page as a signed-out visitor sees it. Each render collects
 * the loads its useAsync hooks start; they are awaited and the page rendered again with their answers, until no
 * hook is left waiting (a page shown only once its data came: the product's workshop schedule). The answers go
 * with the HTML, so the browser hydrates with the same ones (see prerender.ts).
 */

/** The API as this render reaches it (the server's own, in-process): per render, so each app renders with its own. */
type Transport = Parameters<typeof setTransport>[0];
const renderTransport = new AsyncLocalStorage<Transport>();
setTransport((path, init) => {
  const transport = renderTransport.getStore();
  if (!transport) return Promise.reject(new Error('the server render reaches the API only inside render()'));
  return transport(path, init);
});

/** Enough rounds for a page whose loads depend on others' answers; what is still loading then loads in the browser. */
const MAX_RENDERS = 4;

export interface RenderedPage {
  kind: 'page';
  /** 200, or 404 for a page not found. */
  status: number;
  /** What goes inside <div id="root">. */
  html: string;
  head: Omit<Head, 'jsonLd' | 'status' | 'clientOnly'> & { jsonLd: Record<string, unknown> | null };
  /** What the page's loads answered, by hook id: the browser's first render uses them. */
  seeds: Record<string, Seed>;
  /** The page's component (its chunk is preloaded with the page); null for the page-not-found page. */
  page: string | null;
}

/** The browser renders the page (the learner's own pages, a locked lesson, or an API that failed). */
export interface ClientPage {
  kind: 'client';
  noindex: boolean;
  /** Why, for the log (a render or load that failed); null when expected. */
  problem: Error | null;
}

/**
 * The address as a page's render reads it: its path and, of its query, only the parameters its route reads (the
 * first value of each, in the route's order); a learner's own page or an unknown address, its path alone. Every
 * address that gives the same answer gives the same one of these, which the server keeps its render under.
 */
export function renderedAddress(url: string): string {
  const { pathname, searchParams } = new URL(url, 'http://render.invalid');
  const route = routeFor(pathname);
  const kept = new URLSearchParams();
  for (const name of route?.public ? (route.query ?? []) : []) {
    const value = searchParams.get(name);
    if (value !== null) kept.append(name, value);
  }
  const query = kept.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/**
 * The page at `url` (path and query) of `school`'s site, its head resolved for the site at `origin`; its loads reach
 * the API through `transport` (which must answer as to a signed-out visitor).
 */
export function render(
  url: string,
  origin: string,
  transport: Transport,
  school: SiteSchool,
): Promise<RenderedPage | ClientPage> {
  return renderTransport.run(transport, () => renderPage(url, origin, school));
}

async function renderPage(url: string, origin: string, school: SiteSchool): Promise<RenderedPage | ClientPage> {
  const pathname = new URL(url, origin).pathname;
  const route = routeFor(pathname);
  if (route && !route.public) return { kind: 'client', noindex: true, problem: null };
  await route?.preload();

  const seeds = new Map<string, Seed>();
  for (let round = 1; ; round++) {
    const loads = new Map<string, () => Promise<unknown>>();
    const used: Record<string, Seed> = {};
    const prerender: Prerender = {
      take: <T,>(id: string, load: () => Promise<T>) => {
        const seed = seeds.get(id);
        if (seed) {
          used[id] = seed;
          return stateOf<T>(seed);
        }
        loads.set(id, load);
        return null;
      },
      keep: <T,>(id: string, compute: () => T) => {
        const data = compute();
        used[id] = { data };
        return data;
      },
    };
    let head: Head = {};
    const collect = (said: Head) => {
      head = { ...head, ...Object.fromEntries(Object.entries(said).filter(([, v]) => v !== undefined)) };
    };
    let html: string;
    try {
      html = renderToString(
        <HeadContext value={collect}>
          <SchoolContext value={school}>
            <PrerenderContext value={prerender}>
              <App ssrPath={url} />
            </PrerenderContext>
          </SchoolContext>
        </HeadContext>,
      );
    } catch (error) {
      return { kind: 'client', noindex: false, problem: error as Error };
    }
    if (head.clientOnly) return { kind: 'client', noindex: true, problem: null };

    if (loads.size === 0 || round === MAX_RENDERS) {
      const { jsonLd, status, clientOnly: _, ...rest } = head;
      return {
        kind: 'page',
        status: status ?? 200,
        html,
        head: { ...rest, jsonLd: jsonLd ? jsonLd(origin) : null },
        seeds: used,
        page: route?.name ?? null,
      };
    }
    const ids = [...loads.keys()];
    const outcomes = await Promise.allSettled([...loads.values()].map((load) => load()));
    for (const [i, outcome] of outcomes.entries()) {
      const seed = seedOf(outcome);
      // Not an answer of the API (it is down, or failed): the browser renders the page and offers "Try again".
      if (!seed) {
        const reason: unknown = outcome.status === 'rejected' ? outcome.reason : null;
        return { kind: 'client', noindex: false, problem: reason instanceof Error ? reason : new Error('load failed') };
      }
      seeds.set(ids[i]!, seed);
    }
  }
}
