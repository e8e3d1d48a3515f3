import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { PROJECT_ROOT } from '../../api/src/config';
import type { Db } from '../../api/src/db/connection';
import type { Role } from '../../api/src/identity/roles';
import { sessions } from '../../api/src/identity/sessions';
import { createUser } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { afterAll, beforeAll, expect } from 'vitest';
import type { SignedIn } from './auth';
import { useTestDatabase } from './db';
import { listen } from './server';

/** Debian's Chromium, headless; the background-networking flags keep it off the (closed) network. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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

/**
 * A browser context already signed in as a new user with these roles (the cookies a sign-in sets); `email` names the
 * user, so a test can find them (and give them purchases).
 */
export async function signedInContext(browser: Browser, baseUrl: string, db: Db, roles: Role[], email?: string): Promise<BrowserContext> {
  const user = await createUser(db, { roles, email });
  const session = await sessions({ db, clock: { now: () => new Date() } }).create(db, user.id, 'browser test');
  return withSession(await browser.newContext(), baseUrl, session.token, session.csrfToken);
}

/** A browser context holding an existing person's session (signedInContext always makes a new user). */
export async function contextFor(browser: Browser, baseUrl: string, auth: SignedIn, viewport?: { width: number; height: number }): Promise<BrowserContext> {
  const cookies = Object.fromEntries(auth.cookie.split('; ').map((pair) => pair.split('=') as [string, string]));
  return withSession(await browser.newContext(viewport && { viewport }), baseUrl, cookies.lp_session!, cookies.lp_csrf!);
}

/** The cookies a sign-in sets. */
async function withSession(context: BrowserContext, baseUrl: string, token: string, csrfToken: string): Promise<BrowserContext> {
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
 * listening on it, and Chromium.
 */
export function useDemoSite(seed: (db: Db) => Promise<unknown> = (db) => runSeeds(db, { demo: true })): () => DemoSite {
  const database = useTestDatabase();
  let site: DemoSite | undefined;
  let server: Awaited<ReturnType<typeof listen>> | undefined;
  beforeAll(async () => {
    const { db } = database();
    await seed(db);
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

/** Keeps a screenshot of a main screen as a test artifact (test-artifacts/, ignored by git). */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`), fullPage: true });
}

/**
 * A purchase made the way a buyer makes it: a checkout on the site, paid on the built-in test provider's page,
 * fulfilled by the thank-you page's status call. Answers the purchase's id.
 */
export async function buyThroughSite(baseUrl: string, productId: string, email: string): Promise<string> {
  const created = await fetch(`${baseUrl}/api/store/checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ productId, email }),
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
