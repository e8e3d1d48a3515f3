import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DeviceClient } from '../support/models';
import { DEVICE_CODE_GRANT } from '../../api/src/identity/devices/device-flow';
import { useDemoSite } from '../support/browser';
import { lastEmailTo } from '../support/outbox';

interface DeviceCode {
  device_code: string;
  user_code: string;
  verification_uri_complete: string;
}

describe('signing in and approving a device on the storefront (Chromium)', () => {
  const site = useDemoSite();
  let page: Page;

  beforeAll(async () => {
    page = await (await site().browser.newContext()).newPage();
    // A second registered app (the CLI is registered by the migration): /activate shows registered names only.
    await DeviceClient.query(site().db).insert({ clientId: 'tv-app', name: 'Living-room TV' });
  });

  const heading = (name: string) => page.getByRole('heading', { name });

  it('signs in with the emailed link, which only the Continue button uses', async () => {
    await page.goto(`${site().baseUrl}/login`);
    await page.getByRole('textbox', { name: 'Email' }).fill('learner@example.com');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await heading('Check your inbox').waitFor();

    const { link } = await lastEmailTo(site().db, 'learner@example.com');
    const emailed = new URL(link!.pathname + link!.search, site().baseUrl).toString();

    // A mail scanner opening the link does not sign anyone in.
    const scanner = await site().browser.newPage();
    await scanner.goto(emailed);
    await scanner.getByRole('heading', { name: 'Finish signing in' }).waitFor();
    await scanner.close();

    await page.goto(emailed);
    await heading('Finish signing in').waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await page.getByText('learner@example.com').count()).toBeGreaterThan(0);
  });

  it('approves a device on /activate, after which the device gets its token', async () => {
    const code = (await (
      await fetch(`${site().baseUrl}/oauth/device/code`, {
        method: 'POST',
        body: new URLSearchParams({ client_id: 'course-cli' }),
      })
    ).json()) as DeviceCode;
    const poll = async (): Promise<{ error?: string; access_token?: string; token_type?: string }> =>
      (
        await fetch(`${site().baseUrl}/oauth/token`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: DEVICE_CODE_GRANT,
            device_code: code.device_code,
            client_id: 'course-cli',
          }),
        })
      ).json() as Promise<{ error?: string; access_token?: string; token_type?: string }>;

    await page.goto(new URL(new URL(code.verification_uri_complete).search, `${site().baseUrl}/activate`).toString());
    await expect.poll(() => page.getByRole('textbox', { name: 'Device code' }).inputValue()).toBe(code.user_code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await heading('Approve this device?').waitFor();
    expect(await page.getByText('Course CLI').count()).toBeGreaterThan(0);
    expect(await page.getByText('course-cli').count()).toBe(0); // the registered name, not the client_id
    expect((await poll()).error).toBe('authorization_pending');

    await page.getByRole('button', { name: 'Approve' }).click();
    await heading('Device approved').waitFor();
    await new Promise((r) => setTimeout(r, 5000)); // the device waits its interval before polling again
    const granted = await poll();
    expect(granted.token_type).toBe('Bearer');
    const me = await fetch(`${site().baseUrl}/oauth/userinfo`, {
      headers: { Authorization: `Bearer ${granted.access_token}` },
    });
    expect(((await me.json()) as { email: string }).email).toBe('learner@example.com');

    await page.goto(`${site().baseUrl}/devices`);
    await heading('Course CLI').waitFor();
    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('button', { name: 'Yes, revoke' }).click();
    await page.getByText('No devices are signed in to your account.').waitFor();
    const revoked = await fetch(`${site().baseUrl}/oauth/userinfo`, {
      headers: { Authorization: `Bearer ${granted.access_token}` },
    });
    expect(revoked.status).toBe(401);
  });

  it('refuses a device code that was denied', async () => {
    const code = (await (
      await fetch(`${site().baseUrl}/oauth/device/code`, {
        method: 'POST',
        body: new URLSearchParams({ client_id: 'tv-app' }),
      })
    ).json()) as DeviceCode;
    await page.goto(`${site().baseUrl}/activate`);
    await page.getByRole('textbox', { name: 'Device code' }).fill(code.user_code.toLowerCase().replace('-', ' '));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Living-room TV').waitFor();
    await page.getByRole('button', { name: 'Deny' }).click();
    await heading('Request denied').waitFor();
    const answer = await fetch(`${site().baseUrl}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: DEVICE_CODE_GRANT, device_code: code.device_code, client_id: 'tv-app' }),
    });
    expect(((await answer.json()) as { error: string }).error).toBe('access_denied');
  });
});
