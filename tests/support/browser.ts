import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { PROJECT_ROOT } from '../../api/src/config';
import type { Db } from '../../api/src/db/connection';
import type { Role } from '../../api/src/shared/roles';
import { sessions } from '../../api/src/identity/sign-in/sessions';
import { createUser } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { afterAll, beforeAll, expect } from 'vitest';
import type { SignedIn } from './auth';
import { useTestDatabase } from './db';
import { lastEmailTo } from './outbox';
import { listen } from './server';

/**
 * Debian's Chromium as its headless shell: the same engine as the browser without the browser's own windows and
 * services, a third less CPU per browser file. The background-networking flags keep it off the (closed) network.
 */
function launchHeadlessShell(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The worker's browser: files run one after another in a worker (isolate: false), so they can share one. */
let workerBrowser: Promise<Browser> | undefined;

/**
 * A browser for one test file. Launching Chromium costs about a CPU-second and a half, so the files of a worker share
 * one; each file sees it through a view whose `close()` closes the contexts that file opened (each context has its
 * own cookies, storage and cache, so nothing passes between files) and leaves the browser to the next file. A
 * browser that crashed is launched again. Playwright closes it when the worker exits.
 */
export async function launchChromium(): Promise<Browser> {
  let browser = await workerBrowser;
  if (!browser?.isConnected()) {
    workerBrowser = launchHeadlessShell();
    browser = await workerBrowser;
  }
  return fileView(browser);
}

function fileView(browser: Browser): Browser {
  const opened = new Set<BrowserContext>();
  const track = (context: BrowserContext) => {
    opened.add(context);
    context.once('close', () => opened.delete(context));
    return context;
  };
  const newContext: Browser['newContext'] = async (options) => track(await browser.newContext(options));
  // browser.newPage opens a context of its own, which closing the page closes.
  const newPage: Browser['newPage'] = async (options) => {
    const page = await browser.newPage(options);
    track(page.context());
    return page;
  };
  const close: Browser['close'] = async () => {
    await Promise.all([...opened].map((context) => context.close().catch(() => undefined)));
  };
  const contexts: Browser['contexts'] = () => [...opened];
  const own: Partial<Browser> = { newContext, newPage, close, contexts };
  return new Proxy(browser, {
    get(target, key, receiver) {
      if (key in own) return own[key as keyof Browser];
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * A browser context already signed in as a new user with these roles (the cookies a sign-in sets); `email` names the
 * user, so a test can find them (and give them purchases).
 */
export async function signedInContext(
  browser: Browser,
  baseUrl: string,
  db: Db,
  roles: Role[],
  email?: string,
): Promise<BrowserContext> {
  const user = await createUser(db, { roles, email });
  const session = await sessions({ db, clock: { now: () => new Date() } }).create(db, user.id, 'browser test', 'email');
  return withSession(await browser.newContext(), baseUrl, session.token, session.csrfToken);
}

/** A browser context holding an existing person's session (signedInContext always makes a new user). */
export async function contextFor(
  browser: Browser,
  baseUrl: string,
  auth: SignedIn,
  viewport?: { width: number; height: number },
): Promise<BrowserContext> {
  const cookies = Object.fromEntries(auth.cookie.split('; ').map((pair) => pair.split('=') as [string, string]));
  return withSession(
    await browser.newContext(viewport && { viewport }),
    baseUrl,
    cookies.lp_session!,
    cookies.lp_csrf!,
  );
}

/** The cookies a sign-in sets. */
async function withSession(
  context: BrowserContext,
  baseUrl: string,
  token: string,
  csrfToken: string,
): Promise<BrowserContext> {
  await context.addCookies([
    { name: 'lp_session', value: token, url: baseUrl, httpOnly: true, sameSite: 'Lax' },
    { name: 'lp_csrf', value: csrfToken, url: baseUrl, sameSite: 'Lax' },
  ]);
  return context;
}

/** Pays on the built-in provider's checkout page and waits for the thank-you page to confirm. */
export async function payAndConfirm(page: Page): Promise<void> {
  await page.waitForURL(/\/test-provider\/checkout\//);
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.waitForURL(/\/thanks\?checkout=/);
  await page.getByText('Your purchase is confirmed.').waitFor({ timeout: 20_000 });
}

export interface DemoSite {
  browser: Browser;
  baseUrl: string;
  db: Db;
}

/**
 * For a browser test file: its own database with the demo data (or what `seed` puts there), the product
 * listening on it, and Chromium. The browser tests buy as visitors from the US who name no state, which a school
 * registered in US states asks for before taking a payment: the demo's US state registrations are left out unless
 * `usStateTax` (a test of that tax keeps the ones its seed makes).
 */
export function useDemoSite(
  seed: (db: Db) => Promise<unknown> = (db) => runSeeds(db, { demo: true }),
  { usStateTax = false }: { usStateTax?: boolean } = {},
): () => DemoSite {
  const database = useTestDatabase();
  let site: DemoSite | undefined;
  let server: Awaited<ReturnType<typeof listen>> | undefined;
  beforeAll(async () => {
    const { db } = database();
    await seed(db);
    if (!usStateTax) await db('taxRegistrations').where({ country: 'US' }).delete();
    server = await listen(db);
    site = { browser: await launchChromium(), baseUrl: server.baseUrl, db };
  });
  afterAll(async () => {
    await site?.browser.close();
    await server?.close();
  });
  return () => {
    if (!site) throw new Error('the demo site is not ready: use it inside a test or hook');
    return site;
  };
}

export const ARTIFACTS_DIR = path.join(PROJECT_ROOT, 'test-artifacts');

/**
 * Screenshots are for a person to look through (nothing compares them) and each costs time, so they are taken only
 * when asked for: KEEP_SCREENSHOTS=1 npm test.
 */
const KEEPS_SCREENSHOTS = process.env.KEEP_SCREENSHOTS === '1';

/**
 * Picks `option` in the MUI select named `select`. A select opens on mouse-down; a click that lands while react-admin
 * re-renders the filter form (its list data arriving) can miss, so the menu is opened again until its option shows.
 */
export async function chooseOption(
  page: Page,
  select: string,
  option: string,
  { exact = false, timeoutMs = 20_000 } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const choice = page.getByRole('option', { name: option, exact });
  for (;;) {
    await page.getByRole('combobox', { name: select }).click();
    try {
      await choice.waitFor({ state: 'visible', timeout: 2_000 });
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await page.keyboard.press('Escape'); // a half-open menu would swallow the next click
    }
  }
  await choice.click();
}

/**
 * Keeps a screenshot of a screen as a test artifact (test-artifacts/, ignored by git) when KEEP_SCREENSHOTS=1;
 * `still` waits first until the page stops moving (a chart drawing, a tab indicator sliding).
 */
export async function keepScreenshot(page: Page, name: string, { still = false } = {}): Promise<void> {
  if (!KEEPS_SCREENSHOTS) return;
  if (still) await waitForStillness(page);
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`), fullPage: true, animations: 'disabled' });
}

/**
 * Waits until the page has stopped moving (two screenshots in a row are the same), so a screenshot does not catch a
 * chart's bars or a tab indicator mid-animation. JavaScript-driven animations are not stopped by `animations: 'disabled'`.
 */
export async function waitForStillness(page: Page, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  // JPEG encodes in about half PNG's time, and the same pixels always give the same bytes: the suite takes thousands.
  const shot = () => page.screenshot({ type: 'jpeg', quality: 80 });
  let previous = await shot();
  for (;;) {
    const current = await shot();
    if (current.equals(previous) || Date.now() > deadline) return;
    previous = current;
  }
}

/**
 * What moves on the page now: its CSS transitions and animations still running (a dialog fading in, a menu growing;
 * those that repeat for ever, a spinner, aside), and every element's box. A string: this runs in the page (the tests
 * are compiled without the DOM's types).
 */
const MOTION = `[
  document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity).length,
  document.documentElement.scrollWidth + ';' + [...document.querySelectorAll('body *')]
    .map((e) => { const r = e.getBoundingClientRect(); return r.x + ',' + r.y + ',' + r.width + ',' + r.height; })
    .join(';'),
]`;

/**
 * Waits until the page has settled: no finite animation running and every element's box the same for `quietMs`.
 * Far cheaper than comparing screenshots (each costs up to a second on a loaded machine), and enough before measuring
 * the layout or checking contrast; a screenshot kept for a person still waits for the pixels (waitForStillness).
 * Asked from here rather than timed in the page, where a page without JavaScript runs no timer or frame callback.
 */
async function waitForSteadyLayout(page: Page, { quietMs = 150, timeoutMs = 10_000 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let [, previous] = await page.evaluate<[number, string]>(MOTION);
  let changed = Date.now();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 40)); // the next look, a few frames on
    const [running, boxes] = await page.evaluate<[number, string]>(MOTION);
    if (boxes !== previous || running > 0) [previous, changed] = [boxes, Date.now()];
    if (Date.now() - changed >= quietMs || Date.now() > deadline) return;
  }
}

/**
 * A purchase made the way a buyer makes it: a checkout on the site, paid on the built-in test provider's page,
 * fulfilled by the thank-you page's status call. Answers the purchase's id.
 */
export async function buyThroughSite(baseUrl: string, productId: string, email: string): Promise<string> {
  const created = await fetch(`${baseUrl}/api/store/checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // Billed in Oregon: no sales tax, wherever the school collects it.
    body: JSON.stringify({ productId, email, billing: { region: 'OR' } }),
  });
  expect(created.status).toBe(201);
  const { checkoutId, url } = (await created.json()) as { checkoutId: string; url: string };
  const paid = await fetch(`${baseUrl}${new URL(url).pathname}/pay`, { method: 'POST', redirect: 'manual' });
  expect(paid.status).toBe(303);
  const status = await fetch(`${baseUrl}/api/store/checkouts/${checkoutId}`);
  const body = (await status.json()) as { status: string; purchaseId: string };
  expect(body.status).toBe('fulfilled');
  return body.purchaseId;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core on the page as it is now; answers its violations (every impact). axe is evaluated through the
 * browser's DevTools protocol, which the pages' Content-Security-Policy (script-src 'self') rightly does not allow
 * a script tag to do.
 */
export async function axeViolations(page: Page, within?: string): Promise<AxeViolation[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  const context = within ? `document.querySelector(${JSON.stringify(within)})` : 'document';
  // A string: this runs in the page (the tests are compiled without the DOM's types).
  return page.evaluate(`axe.run(${context}, { resultTypes: ['violations'] }).then((result) =>
    result.violations.map(({ id, impact, help, helpUrl, nodes }) => ({
      id, impact, help, helpUrl, nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })),
    })))`);
}

/**
 * Signs in to the console by email as a person does, from a page showing its sign-in form: asks for the link,
 * opens the one the outbox holds, and continues. The caller waits for where it should land.
 */
export async function signInToConsoleByEmail(
  page: Page,
  site: { baseUrl: string; db: Db },
  email: string,
): Promise<void> {
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send sign-in link' }).click();
  await page.getByText('Check your inbox').waitFor();
  const { link } = await lastEmailTo(site.db, email);
  await page.goto(new URL(link!.pathname + link!.search, site.baseUrl).toString());
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** The innermost elements reaching past `width`: what makes a page scroll sideways. */
function stickingOut(page: Page, width: number): Promise<string[]> {
  return page.evaluate<string[]>(`[...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > ${width} && ![...e.children].some((c) => c.getBoundingClientRect().right > ${width}))
    .slice(0, 5)
    .map((e) => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ').join('.') : '') + ' (' + Math.round(e.getBoundingClientRect().right) + ' px)')`);
}

/** axe-core's serious and critical violations on the page as it is now (or in the element `within` selects). */
export async function seriousViolations(page: Page, within?: string): Promise<string[]> {
  return (await axeViolations(page, within))
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The widths a learner's storefront is used at: a laptop and a phone. */
export const STOREFRONT_WIDTHS = [
  [1280, 800],
  [390, 844],
] as const;

/** The widths staff use the console at: a desktop and a small laptop or tablet. */
export const CONSOLE_WIDTHS = [
  [1440, 900],
  [1024, 768],
] as const;

/**
 * A screen at each width (the storefront's 1280 and 390 px unless told): the page itself must not scroll sideways
 * (a table may, inside its own box), and with `axe` it has no serious accessibility violation at the first width;
 * with KEEP_SCREENSHOTS=1, screenshots go to test-artifacts/<name>-<width>.png. The page is left at the first width.
 * At each width the page settles first: its animations finished and its layout still (waitForSteadyLayout), or, with
 * `settle: 'pixels'` or when screenshots are kept, two screenshots alike (waitForStillness: a chart drawn by script).
 */
export async function checkScreen(
  page: Page,
  name: string,
  {
    axe = false,
    widths = STOREFRONT_WIDTHS,
    settle = 'layout',
  }: {
    axe?: boolean;
    widths?: typeof STOREFRONT_WIDTHS | typeof CONSOLE_WIDTHS;
    settle?: 'pixels' | 'layout';
  } = {},
): Promise<void> {
  for (const [width, height] of widths) {
    await page.setViewportSize({ width, height });
    // The layout settles at the new width before it is measured and kept.
    if (settle === 'layout' && !KEEPS_SCREENSHOTS) await waitForSteadyLayout(page);
    else await waitForStillness(page);
    const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
    const sticking = scrollWidth > width ? await stickingOut(page, width) : [];
    await keepScreenshot(page, `${name}-${width}`);
    expect(scrollWidth, `${name} scrolls sideways at ${width} px: ${sticking.join(', ')}`).toBeLessThanOrEqual(width);
    if (axe && width === widths[0][0]) expect(await seriousViolations(page), name).toEqual([]);
  }
  await page.setViewportSize({ width: widths[0][0], height: widths[0][1] });
}
