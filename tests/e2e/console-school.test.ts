import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checkScreen, seriousViolations, keepScreenshot, signedInContext, useDemoSite } from '../support/browser';

const LOGO_INPUT = '.ra-input-logoKey input[type=file]';

/** The settings as the public storefront reads them. */
async function storeSchool(baseUrl: string) {
  return (await (await fetch(`${baseUrl}/api/store/school`)).json()) as {
    name: string;
    legalName: string;
    address: string;
    supportEmail: string | null;
    accentColor: string;
    termsHtml: string;
    logo: { src: string; width: number } | null;
    updatedAt: string | null;
  };
}

/** Waits until the image has loaded (the preview of a chosen or stored logo), and answers what it shows. */
async function loadedImage(page: Page, selector: string) {
  const image = page.locator(selector).first();
  await image.waitFor();
  await expect
    .poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
    .toBeGreaterThan(0);
  return image.evaluate((img) => (img as unknown as { currentSrc: string }).currentSrc);
}

describe('the school’s settings in the console (Chromium)', () => {
  const site = useDemoSite();

  it('are edited by an administrator: fields, accent colour, logo and legal text, saved at once and there after a reload', async () => {
    const { browser, baseUrl, db } = site();
    const context = await signedInContext(browser, baseUrl, db, ['admin']);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${baseUrl}/admin/#/`);
    await page.getByRole('menuitem', { name: 'School settings' }).click();
    await page.waitForURL(/#\/school$/);
    const name = page.getByRole('textbox', { name: 'School name' });
    await expect.poll(() => name.inputValue()).toBe('Typed Academy');
    await checkScreen(page, 'console-school-settings');
    // The whole screen, the console's app bar (react-admin's, on every screen) included.
    expect(await seriousViolations(page)).toEqual([]);

    await name.fill('Académie Ünïcode');
    await page.getByRole('textbox', { name: 'Legal name' }).fill('Académie Ünïcode SARL');
    await page.getByRole('textbox', { name: 'Postal address' }).fill('12 rue des Écoles\n75005 Paris');
    await page.getByRole('textbox', { name: 'Support email' }).fill('aide@academie.example');
    // The hex text and the picker are one value; the preview button takes the colour at once.
    await page.getByRole('textbox', { name: 'Accent colour (hex)' }).fill('#0f766e');
    await expect.poll(() => page.getByLabel('Pick the accent colour').inputValue()).toBe('#0f766e');
    await page.getByRole('img', { name: 'A button in the accent colour #0f766e' }).waitFor();
    const terms = page.getByRole('textbox', { name: 'Terms of sale' });
    await terms.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Refunds within 30 days, no questions asked.');
    const logo = await sharp({ create: { width: 640, height: 160, channels: 4, background: '#0f766e' } })
      .png()
      .toBuffer();
    await page.locator(LOGO_INPUT).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo });
    await loadedImage(page, '.ra-input-logoKey img'); // the chosen file's preview
    await keepScreenshot(page, 'console-school-settings-filled');

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('School settings saved: pages and new emails use them now.').waitFor();
    const saved = await storeSchool(baseUrl);
    expect(saved).toMatchObject({
      name: 'Académie Ünïcode',
      legalName: 'Académie Ünïcode SARL',
      address: '12 rue des Écoles\n75005 Paris',
      supportEmail: 'aide@academie.example',
      accentColor: '#0f766e',
      logo: { width: 640 },
    });
    expect(saved.termsHtml).toContain('Refunds within 30 days, no questions asked.');

    await page.reload();
    await expect.poll(() => page.getByRole('textbox', { name: 'School name' }).inputValue()).toBe('Académie Ünïcode');
    expect(await page.getByRole('textbox', { name: 'Support email' }).inputValue()).toBe('aide@academie.example');
    expect(await page.getByRole('textbox', { name: 'Accent colour (hex)' }).inputValue()).toBe('#0f766e');
    await page.getByRole('textbox', { name: 'Terms of sale' }).getByText('Refunds within 30 days').waitFor();
    expect(await loadedImage(page, '.ra-input-logoKey img')).toContain(saved.logo!.src);
    await checkScreen(page, 'console-school-settings-saved');

    // Taken off again: the preview's remove button, then Save.
    await page.locator('.ra-input-logoKey').getByRole('button', { name: 'Delete' }).click();
    expect(await page.locator('.ra-input-logoKey img').count()).toBe(0);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('School settings saved: pages and new emails use them now.').waitFor();
    expect((await storeSchool(baseUrl)).logo).toBeNull();
    await context.close();
  });

  it('show the API’s refusals on their fields: a colour it cannot read, a file that is not an image; nothing changes', async () => {
    const { browser, baseUrl, db } = site();
    const before = await storeSchool(baseUrl);
    const context = await signedInContext(browser, baseUrl, db, ['admin']);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${baseUrl}/admin/#/school`);
    const accent = page.getByRole('textbox', { name: 'Accent colour (hex)' });
    await expect.poll(() => accent.inputValue()).toBe(before.accentColor);

    await accent.fill('teal');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('must be a colour like #1d4ed8').waitFor();
    expect(await accent.getAttribute('aria-invalid')).toBe('true');
    expect((await storeSchool(baseUrl)).accentColor).toBe(before.accentColor);

    await accent.fill(before.accentColor);
    await page
      .locator(LOGO_INPUT)
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('not a picture\n'.repeat(40)) });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Choose a JPEG, PNG, WebP or AVIF image').first().waitFor();
    await keepScreenshot(page, 'console-school-settings-refused');
    expect({ ...(await storeSchool(baseUrl)), updatedAt: null }).toEqual({ ...before, updatedAt: null });
    await context.close();
  });

  it('are not offered to support: no menu item, and the page’s address shows nothing of it', async () => {
    const { browser, baseUrl, db } = site();
    const context = await signedInContext(browser, baseUrl, db, ['support']);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${baseUrl}/admin/#/`);
    await page.getByRole('menuitem', { name: 'Dashboard' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'School settings' }).count()).toBe(0);
    await page.goto(`${baseUrl}/admin/#/school`);
    await page.getByText('Not Found').first().waitFor();
    expect(await page.getByRole('textbox', { name: 'School name' }).count()).toBe(0);
    await keepScreenshot(page, 'console-school-settings-support');
    await context.close();
  });
});
