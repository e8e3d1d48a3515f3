import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { Product } from '../support/models';
import { createRevenueSplit, createUser } from '../../seeds/factories';
import { checkScreen, keepScreenshot, signedInContext, useDemoSite } from '../support/browser';

/** A picture made here: a diagonal gradient with a few bands, so a screenshot shows it is really there. */
async function gradientPng(width: number, height: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#1d4e89"/><stop offset="1" stop-color="#f2a541"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${width * 0.7}" cy="${height * 0.4}" r="${height * 0.25}" fill="#ffffff" fill-opacity="0.35"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Waits until the image has decoded (naturalWidth > 0) and answers what the browser picked from its srcset. */
async function loaded(page: Page, selector: string): Promise<{ naturalWidth: number; currentSrc: string }> {
  const image = page.locator(selector).first();
  await image.waitFor();
  await image.scrollIntoViewIfNeeded();
  await expect
    .poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), {
      timeout: 20_000,
    })
    .toBeGreaterThan(0);
  return image.evaluate((img) => {
    const { naturalWidth, currentSrc } = img as unknown as { naturalWidth: number; currentSrc: string };
    return { naturalWidth, currentSrc };
  });
}

describe('product images and avatars, uploaded in the console and shown on the storefront (Chromium)', () => {
  const site = useDemoSite();
  let product: Product;
  let folder: string;

  beforeAll(async () => {
    product = (await Product.query(site().db).findOne({ key: 'typescript-fundamentals' }))!;
    folder = await mkdtemp(path.join(os.tmpdir(), 'lp-e2e-images-'));
  });

  it('uploads a product image with its alt text on the product’s edit page, refusing a file that is not an image', async () => {
    const { browser, baseUrl, db } = site();
    const context = await signedInContext(browser, baseUrl, db, ['support']);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/admin/#/products/${product.id}`);
    await page.getByRole('textbox', { name: 'Name' }).waitFor();

    // A text file named like a photo: the API reads the bytes and says no, under the field.
    const fake = path.join(folder, 'holiday.jpg');
    await writeFile(fake, 'not a picture at all\n'.repeat(20));
    await page.locator('.ra-input-imageKey input[type=file]').setInputFiles(fake);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Choose a JPEG, PNG, WebP or AVIF image').first().waitFor();
    expect((await db('products').where('id', product.id).first()).imageKey).toBeNull();

    const cover = path.join(folder, 'cover.png');
    await writeFile(cover, await gradientPng(1600, 900));
    await page.locator('.ra-input-imageKey input[type=file]').setInputFiles(cover);
    await loaded(page, '.ra-input-imageKey img'); // the preview of the chosen file
    await page.getByLabel('Image description (alt text)').fill('An orange and blue gradient');
    await keepScreenshot(page, 'console-product-image-chosen');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(new RegExp(`#/products/${product.id}/show`));
    await expect
      .poll(async () => (await db('products').where('id', product.id).first()).imageKey, { timeout: 20_000 })
      .toMatch(/^[0-9a-f]{32}-1600x900\.png$/);
    expect((await db('products').where('id', product.id).first()).imageAlt).toBe('An orange and blue gradient');

    // Back on the edit page: the stored picture is the preview, served resized by the API.
    await page.goto(`${baseUrl}/admin/#/products/${product.id}`);
    const preview = await loaded(page, '.ra-input-imageKey img');
    expect(preview.currentSrc).toMatch(/\/media\/images\/[0-9a-f]{32}-1600x900\.png\?w=320$/);
    expect(preview.naturalWidth).toBe(320);
    await keepScreenshot(page, 'console-product-image-saved', { still: true });
    await context.close();
  });

  it('shows it on the home page’s card and the product page, resized, with its alt text', async () => {
    const { browser, baseUrl } = site();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const served: { url: string; type: string }[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/media/images/'))
        served.push({ url: response.url(), type: response.headers()['content-type'] ?? '' });
    });

    await page.goto(baseUrl);
    const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: product.name }) });
    const cardImage = await loaded(page, `.product-card:has(a[href="/products/${product.slug}"]) img.card-image`);
    expect(cardImage.currentSrc).toMatch(/\/media\/images\/.+\?w=(320|640)$/);
    expect(cardImage.naturalWidth).toBeLessThanOrEqual(640);
    expect(await card.getByRole('img', { name: 'An orange and blue gradient' }).count()).toBe(1);
    expect(served.some((s) => s.type === 'image/avif')).toBe(true); // Chromium takes AVIF
    await checkScreen(page, 'storefront-home-card-image', { axe: true });

    await page.goto(`${baseUrl}/products/${product.slug}`);
    const cover = await loaded(page, 'img.product-cover');
    expect(cover.currentSrc).toMatch(/\/media\/images\/[0-9a-f]{32}-1600x900\.png\?w=\d+$/);
    await expect.poll(() => page.getByRole('img', { name: 'An orange and blue gradient' }).count()).toBe(1);
    await checkScreen(page, 'storefront-product-image', { axe: true });
    await context.close();
  });

  it('uploads an instructor’s avatar on their user page; the sales page shows it beside their name', async () => {
    const { browser, baseUrl, db } = site();
    const instructor = await createUser(db, { email: 'ada.teacher@example.com', name: 'Ada Teacher' });
    await createRevenueSplit(db, { productId: product.id, userId: instructor.id, type: 'contributor', percent: 0.1 });
    const context = await signedInContext(browser, baseUrl, db, ['support']);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/admin/#/users/${instructor.id}`);
    await page.getByRole('textbox', { name: 'Name' }).waitFor();
    const portrait = path.join(folder, 'ada.jpg');
    await writeFile(
      portrait,
      await sharp(await gradientPng(600, 600))
        .jpeg()
        .toBuffer(),
    );
    await page.locator('.ra-input-avatarKey input[type=file]').setInputFiles(portrait);
    await loaded(page, '.ra-input-avatarKey img');
    await keepScreenshot(page, 'console-user-avatar-chosen');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => (await db('users').where('id', instructor.id).first()).avatarKey, { timeout: 20_000 })
      .toMatch(/^[0-9a-f]{32}-600x600\.jpg$/);

    const visitor = await browser.newPage();
    await visitor.goto(`${baseUrl}/products/${product.slug}`);
    const avatar = await loaded(visitor, 'img[alt="Portrait of Ada Teacher"]');
    expect(avatar.currentSrc).toMatch(/\?w=(160|320)$/);
    await context.close();
    await visitor.close();
  });
});
