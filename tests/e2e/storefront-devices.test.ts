import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DeviceAccessToken } from '../support/models';
import { hashSecret, newSecret } from '../../api/src/identity/secrets';
import { contextFor, keepScreenshot, useDemoSite } from '../support/browser';
import { signedIn, type SignedIn } from '../support/auth';
import { sessions } from '../../api/src/identity/sign-in/sessions';

describe('signing out everywhere from /devices (Chromium)', () => {
  const site = useDemoSite();

  /** A device signed in to the person's account (as the device flow leaves it), answering its bearer token. */
  async function deviceOf(auth: SignedIn, clientId = 'course-cli'): Promise<string> {
    const token = newSecret();
    await DeviceAccessToken.query(site().db).insert({
      token: hashSecret(token),
      userId: auth.user.id,
      clientId,
      lastUsedAt: new Date(),
    });
    return token;
  }
  /** Another browser of the same person. */
  async function anotherBrowserOf(auth: SignedIn): Promise<SignedIn> {
    const session = await sessions({ db: site().db, clock: { now: () => new Date() } }).create(
      site().db,
      auth.user.id,
      'another browser',
      'email',
    );
    return {
      ...auth,
      cookie: `lp_session=${session.token}; lp_csrf=${session.csrfToken}`,
      csrfToken: session.csrfToken,
    };
  }
  const me = (auth: SignedIn) => fetch(`${site().baseUrl}/api/store/me`, { headers: { cookie: auth.cookie } });
  const userinfo = (token: string) =>
    fetch(`${site().baseUrl}/oauth/userinfo`, { headers: { Authorization: `Bearer ${token}` } });

  async function openDevices(auth: SignedIn, width: number): Promise<Page> {
    const context = await contextFor(site().browser, site().baseUrl, auth, { width, height: 900 });
    const page = await context.newPage();
    await page.goto(`${site().baseUrl}/devices`);
    await page.getByRole('heading', { name: 'My devices' }).waitFor();
    return page;
  }

  it('ends every other browser and every device after confirmation, and this browser stays signed in', async () => {
    const learner = await signedIn(site().db, ['learner'], 'everywhere@example.com');
    const other = await anotherBrowserOf(learner);
    const tokens = [await deviceOf(learner), await deviceOf(learner)];
    expect((await me(other)).status).toBe(200);

    const page = await openDevices(learner, 1280);
    await expect.poll(() => page.getByRole('heading', { name: 'Course CLI' }).count()).toBe(2);
    await page.getByText('Your account is also signed in on 1 other browser and 2 devices.').waitFor();
    await keepScreenshot(page, 'devices-sign-out-everywhere-1280');
    const narrow = await openDevices(learner, 390);
    await narrow.getByRole('button', { name: 'Sign out everywhere' }).click();
    await narrow.getByRole('button', { name: 'Yes, sign out everywhere' }).waitFor();
    await keepScreenshot(narrow, 'devices-sign-out-everywhere-390-confirm');
    await narrow.getByRole('button', { name: 'Cancel' }).click();
    await narrow.context().close();

    // Nothing happens before the confirmation.
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByText('Sign out every other browser and every device?').waitFor();
    expect((await me(other)).status).toBe(200);
    await page.getByRole('button', { name: 'Yes, sign out everywhere' }).click();

    await page
      .getByRole('status')
      .filter({ hasText: 'Signed out 1 other browser and 2 devices. This browser is still signed in.' })
      .waitFor();
    await page.getByText('No devices are signed in to your account.').waitFor();
    await page.getByText('No other browser or device is signed in to your account.').waitFor();
    await keepScreenshot(page, 'devices-sign-out-everywhere-1280-done');
    expect((await me(other)).status).toBe(401);
    for (const token of tokens) expect((await userinfo(token)).status).toBe(401);
    expect((await me(learner)).status).toBe(200);

    // After a reload the page still knows this browser, and there is nothing left elsewhere.
    await page.reload();
    await page.getByText('No other browser or device is signed in to your account.').waitFor();
    expect(await page.getByRole('button', { name: 'Sign out', exact: true }).count()).toBeGreaterThan(0);
    await page.context().close();
  });

  it('says so when signing out everywhere fails, and signs out nobody', async () => {
    const learner = await signedIn(site().db, ['learner'], 'everywhere-offline@example.com');
    const other = await anotherBrowserOf(learner);
    const page = await openDevices(learner, 390);
    await page.getByText('Your account is also signed in on 1 other browser.').waitFor();
    await page.route('**/api/store/auth/sign-out-everywhere', (route) => route.abort());
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('button', { name: 'Yes, sign out everywhere' }).click();
    await page.getByRole('alert').filter({ hasText: 'Could not reach the server' }).waitFor();
    await keepScreenshot(page, 'devices-sign-out-everywhere-390-error');
    expect((await me(other)).status).toBe(200);
    await page.context().close();
  });
});
