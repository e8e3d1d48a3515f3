import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentResource, OutboxEmail } from '../support/models';
import { DEMO_PRODUCTS } from '../../seeds/demo';
import {
  keepScreenshot,
  signInToConsoleByEmail,
  payAndConfirm,
  signedInContext,
  useDemoSite,
} from '../support/browser';
import { lastEmailTo } from '../support/outbox';

/** Every Content-Security-Policy violation a context's pages and frames report, with where it happened. */
async function watchCsp(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding(
    'reportCspViolation',
    ({ frame }, text: string) => void violations.push(`${frame.url()}: ${text}`),
  );
  await context.addInitScript(`document.addEventListener('securitypolicyviolation', (event) => {
    window.reportCspViolation(event.effectiveDirective + ' blocked ' + (event.blockedURI || '(inline)') + ' at ' + event.sourceFile + ':' + event.lineNumber);
  });`);
  const watchPage = (page: Page) =>
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text()))
        violations.push(`${page.url()}: console: ${message.text()}`);
    });
  context.pages().forEach(watchPage);
  context.on('page', watchPage);
  return violations;
}

/** Another origin on this machine (another port) serving one page: what a site that frames ours would do. */
async function attackerSite(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

describe('the storefront and the console under their security headers (Chromium)', () => {
  const site = useDemoSite();
  const contexts: BrowserContext[] = [];
  const servers: Server[] = [];
  afterAll(async () => {
    for (const context of contexts) await context.close();
    for (const server of servers) server.close();
  });

  async function newContext(
    roles?: Parameters<typeof signedInContext>[3],
    email?: string,
  ): Promise<{ context: BrowserContext; violations: string[] }> {
    const { browser, baseUrl, db } = site();
    const context = roles ? await signedInContext(browser, baseUrl, db, roles, email) : await browser.newContext();
    contexts.push(context);
    return { context, violations: await watchCsp(context) };
  }

  describe('a Content-Security-Policy the two apps run under', () => {
    let course: ContentResource;
    let lessonPath: string;
    beforeAll(async () => {
      course = (await ContentResource.query(site().db)
        .where({ type: 'course' })
        .whereRaw(`fields->>'title' = ?`, ['TypeScript Fundamentals'])
        .first())!;
      const welcome = (await ContentResource.query(site().db)
        .where({ type: 'lesson' })
        .whereRaw(`fields->>'title' = ?`, ['Welcome'])
        .first())!;
      lessonPath = `/courses/${course.fields.slug}/lessons/${welcome.fields.slug}`;
    });

    it('are seen when there are some: an injected inline script and an inline event handler are reported', async () => {
      const { context, violations } = await newContext();
      const page = await context.newPage();
      await page.goto(`${site().baseUrl}/`);
      await page.getByRole('heading', { name: DEMO_PRODUCTS.fundamentals.name }).waitFor();
      const ran = await page.evaluate<boolean>(`(() => {
        const script = document.createElement('script');
        script.textContent = 'window.injected = true';
        document.body.append(script);
        const image = document.createElement('img');
        image.setAttribute('onerror', 'window.injected = true');
        image.src = 'data:,';
        document.body.append(image);
        return window.injected ?? false;
      })()`);
      expect(ran).toBe(false);
      await expect.poll(() => violations.filter((v) => v.includes('blocked inline')).length).toBe(2);
    });

    it('lets a visitor browse, read a free lesson and ask for a sign-in link without a single violation', async () => {
      const { context, violations } = await newContext();
      const page = await context.newPage();
      const { baseUrl } = site();

      const response = await page.goto(`${baseUrl}/`);
      expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
      for (const { name } of Object.values(DEMO_PRODUCTS)) await page.getByRole('heading', { name }).waitFor();
      await page.getByRole('heading', { name: DEMO_PRODUCTS.fundamentals.name }).click();
      await page.waitForURL(/\/products\//);
      await expect.poll(() => page.getByRole('region', { name: 'Price' }).innerText()).toContain('$49.00');

      await page.goto(`${baseUrl}${lessonPath}`);
      await page.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();
      await page.getByText('What this course covers and how to study it.').waitFor();

      await page.goto(`${baseUrl}/login`);
      await page.getByRole('textbox', { name: 'Email' }).fill('csp.visitor@example.com');
      await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
      await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
      expect(violations).toEqual([]);
    });

    it('lets a learner buy through the checkout page and see the purchase without a single violation', async () => {
      const { context, violations } = await newContext(['learner']);
      const page = await context.newPage();
      const response = await page.goto(`${site().baseUrl}/products/${DEMO_PRODUCTS.fundamentals.key}`);
      expect(response!.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      await page.getByRole('button', { name: 'Buy now' }).click();
      await payAndConfirm(page); // the built-in provider's page (its own inline styles) and its form posts
      await page.goto(`${site().baseUrl}/settings`);
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      await page.goto(`${site().baseUrl}/activate`);
      await page.getByRole('heading', { name: 'Enter the code shown on your device' }).waitFor();
      expect(violations).toEqual([]);
    });

    it('lets staff sign in to the console, list, edit rich text, read finance and an email without a single violation', async () => {
      const { baseUrl, db } = site();
      const visitor = await newContext();
      const login = await visitor.context.newPage();
      const response = await login.goto(`${baseUrl}/admin/`);
      expect(response!.headers()['content-security-policy']).toContain("style-src 'self' 'unsafe-inline'");
      await login.getByLabel('Email address').fill('csp.staff@example.com');
      await login.getByRole('button', { name: 'Send sign-in link' }).click();
      await login.getByText('Check your inbox').waitFor();
      expect(visitor.violations).toEqual([]);

      const { context, violations } = await newContext(['admin']);
      const page = await context.newPage();
      await page.goto(`${baseUrl}/admin/`);
      await page.getByRole('menuitem', { name: 'Products' }).click();
      for (const { name } of Object.values(DEMO_PRODUCTS)) await page.getByText(name, { exact: true }).waitFor();

      const lesson = (await ContentResource.query(db)
        .where({ type: 'lesson' })
        .whereRaw(`fields->>'title' = ?`, ['Primitive types'])
        .first())!;
      await page.goto(`${baseUrl}/admin/#/content-resources/${lesson.id}`);
      const body = page.getByRole('textbox', { name: 'Body' });
      await body.waitFor();
      await body.click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type(' Under a strict policy.');
      await page.getByRole('button', { name: 'Bold' }).click();
      await keepScreenshot(page, 'console-editor-under-csp');

      await page.goto(`${baseUrl}/admin/#/finance`);
      await page.getByRole('heading', { name: 'Finance', level: 1 }).waitFor();

      const email = (await OutboxEmail.query(db).where('toAddress', 'csp.staff@example.com').first())!;
      await page.goto(`${baseUrl}/admin/#/outbox-emails/${email.id}/show`);
      await page.getByTitle(/HTML body of the email/).waitFor(); // a sandboxed srcdoc frame
      expect(violations).toEqual([]);
    });
  });

  it("keeps a signed-in /activate out of another site's frame", async () => {
    const { baseUrl } = site();
    const target = `${baseUrl}/activate?user_code=WDJB-MJHT`;
    const attacker = await attackerSite(
      `<!doctype html><title>Win a prize</title><h1>Click the button</h1><iframe src="${target}" width="800" height="600"></iframe>`,
    );
    servers.push(attacker.server);

    const { context } = await newContext(['learner'], 'framed@example.com');
    // The same signed-in browser opens /activate itself: it works there.
    const own = await context.newPage();
    await own.goto(target);
    await own.getByRole('heading', { name: 'Enter the code shown on your device' }).waitFor();

    const page = await context.newPage();
    const refused = new Promise<string>((resolve) =>
      page.on('console', (message) => {
        if (/frame-ancestors|X-Frame-Options/.test(message.text())) resolve(message.text());
      }),
    );
    const framed = page.waitForResponse((response) => response.url() === target);
    await page.goto(attacker.url);
    const answer = await framed;

    // Either the browser refuses the frame, or (without the headers) the signed-in page shows inside it.
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    const shown = frame
      .getByRole('heading', { name: 'Enter the code shown on your device' })
      .waitFor()
      .then(() => 'shown inside the frame');
    const outcome = await Promise.race([refused.then((text) => `refused: ${text}`), shown]);
    await keepScreenshot(page, 'framed-activate');
    expect(outcome).toMatch(/^refused: .*frame-ancestors 'none'/);
    expect(await frame.getByRole('heading', { name: 'Enter the code shown on your device' }).count()).toBe(0);
    expect(answer.headers()['x-frame-options']).toBe('DENY');
    expect(answer.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  describe('a sign-in never leads off the site', () => {
    const ATTACK = '/login?redirectTo=%2F%09%2Fevil.example';

    it('offers a way back that stays on the site to someone already signed in', async () => {
      const { context } = await newContext(['learner'], 'already@example.com');
      const page = await context.newPage();
      await page.goto(`${site().baseUrl}${ATTACK}`);
      const notice = page.getByText('You are already signed in as');
      await notice.waitFor();
      const link = page.locator('.notice').getByRole('link');
      // Resolved as the browser resolves it (the same WHATWG parser drops a tab: "/\t/evil.example" is "//evil.example").
      expect(new URL((await link.getAttribute('href'))!, site().baseUrl).origin).toBe(site().baseUrl);
      await link.click();
      await page.waitForURL((url) => url.pathname === '/');
      expect(new URL(page.url()).origin).toBe(site().baseUrl);
    });

    it('comes back to this site after signing in with the emailed link', async () => {
      const { context } = await newContext();
      const page = await context.newPage();
      await page.goto(`${site().baseUrl}${ATTACK}`);
      await page.getByRole('textbox', { name: 'Email' }).fill('redirected@example.com');
      await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
      await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();

      const { link } = await lastEmailTo(site().db, 'redirected@example.com');
      await page.goto(new URL(link!.pathname + link!.search, site().baseUrl).toString());
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      expect(new URL(page.url()).origin).toBe(site().baseUrl);
      expect(new URL(page.url()).pathname).toBe('/');
    });

    it('brings staff back to the console page they were sent to sign in from', async () => {
      const { context } = await newContext();
      const page = await context.newPage();
      await page.goto(`${site().baseUrl}/admin/#/products`);
      await signInToConsoleByEmail(page, site(), 'admin@example.com');
      // Signed in (the console shows its menu), on the page asked for, not the dashboard.
      await page.getByRole('menuitem', { name: 'Products' }).waitFor();
      await expect.poll(() => new URL(page.url()).hash).toBe('#/products');
      await expect
        .poll(() => page.locator('#main-content').getByText(DEMO_PRODUCTS.fundamentals.name, { exact: true }).count())
        .toBe(1);
    });
  });
});
