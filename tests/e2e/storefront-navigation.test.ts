import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../api/src/db/connection';
import { ContentResource, LessonProgress, Product, User, UserPrefs } from '../support/models';
import { createPurchase } from '../../seeds/factories';
import {
  checkScreen,
  keepScreenshot,
  seriousViolations,
  signedInContext,
  useDemoSite,
  type DemoSite,
} from '../support/browser';

/*
 * Finding one's way on the storefront (issue 17, navigation): the phone menu, the lesson page's course outline with
 * previous/next and the course complete moment, a tab title per route, and one button style in both themes.
 */

const PHONE = { width: 390, height: 844 };
/** Any title but the HTML page's generic one (pages other engineers own word theirs). */
const SPECIFIC = /^(?!Typed Academy$)\S/;
const DESKTOP = { width: 1280, height: 800 };
/** The demo course's lessons in reading order (seeds/demo.ts). */
const LESSONS = [
  'Welcome',
  'Types catch mistakes early',
  'Primitive types',
  'Arrays and tuples',
  'Interfaces and type aliases',
  'Optional and readonly',
  'Union types',
  'Narrowing',
  'Exhaustive checks',
];

async function demoCourse(db: Db) {
  const course = (await ContentResource.query(db)
    .where({ type: 'course' })
    .whereRaw(`fields->>'title' = ?`, ['TypeScript Fundamentals'])
    .first())!;
  const coursePath = `/courses/${course.fields.slug}`;
  const lessons = await ContentResource.query(db)
    .where({ type: 'lesson' })
    .whereRaw(`fields->>'title' = ANY(?)`, [LESSONS]);
  const lesson = (title: string) => {
    const row = lessons.find((l) => l.fields.title === title)!;
    return { id: row.id, path: `${coursePath}/lessons/${row.fields.slug}` };
  };
  return { coursePath, lesson };
}

/** A learner who bought the demo course, signed in at this viewport. */
async function learner(site: DemoSite, email: string, viewport = DESKTOP) {
  const { browser, baseUrl, db } = site;
  const context = await signedInContext(browser, baseUrl, db, ['learner'], email);
  const user = (await User.query(db).findOne({ email }))!;
  await createPurchase(db, { user, product: (await Product.query(db).findOne({ slug: 'typescript-fundamentals' }))! });
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  return { context, page, user };
}

/** The focused element's tag and name ("button: Menu", "a: My learning"). */
const focused = (page: Page) =>
  page.evaluate<string>(`(() => {
    const e = document.activeElement;
    return e ? e.tagName.toLowerCase() + ': ' + (e.getAttribute('aria-label') ?? e.textContent ?? '').trim() : '';
  })()`);

/** Vertical middle of an element, to tell whether two sit on one row. */
const middle = async (locator: Locator) => {
  const box = (await locator.boundingBox())!;
  return box.y + box.height / 2;
};

describe('storefront navigation (Chromium)', () => {
  const site = useDemoSite();
  let demo: Awaited<ReturnType<typeof demoCourse>>;
  beforeAll(async () => {
    demo = await demoCourse(site().db);
  });

  it('folds a signed-in header into a Menu button on a phone: opens, has every link, closes with Escape or a choice', async () => {
    const { page, context } = await learner(site(), 'phone-menu@example.com', PHONE);
    await page.goto(`${site().baseUrl}/learning`);
    await page.getByRole('heading', { level: 1, name: 'My learning' }).waitFor();
    const header = page.getByRole('banner');
    const menu = header.getByRole('button', { name: 'Menu' });
    const main = page.getByRole('navigation', { name: 'Main' });
    const account = page.getByRole('navigation', { name: 'Account' });

    // Closed: one row (the brand and the button side by side), no link showing.
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await menu.getAttribute('aria-controls')).toBe('site-menu');
    expect(
      Math.abs((await middle(header.getByRole('link', { name: 'Typed Academy' }))) - (await middle(menu))),
    ).toBeLessThan(4);
    expect((await header.boundingBox())!.height).toBeLessThan(80);
    expect(await main.isVisible()).toBe(false);
    expect(await account.isVisible()).toBe(false);
    await checkScreen(page, 'nav-header-signed-in', { axe: true });
    await page.setViewportSize(PHONE);

    // Open: the main and account navigation, the first link right after the button in the tab order.
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    for (const name of ['My learning', 'Bookmarks']) await main.getByRole('link', { name }).waitFor();
    for (const name of ['My purchases', 'Invoices', 'My devices', 'Settings'])
      await account.getByRole('link', { name }).waitFor();
    await account.getByRole('button', { name: 'Sign out' }).waitFor();
    await account.getByText('phone-menu@example.com').waitFor();
    expect(await main.getByRole('link', { name: 'My learning' }).getAttribute('aria-current')).toBe('page');
    await menu.focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('a: My learning');
    expect(await seriousViolations(page)).toEqual([]);
    await keepScreenshot(page, 'nav-menu-open-390');

    // Escape closes it and gives the focus back to the button.
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await main.isVisible()).toBe(false);
    expect(await focused(page)).toBe('button: Menu');

    // A link to another page: closed, and the new page's content has the focus.
    await menu.click();
    await account.getByRole('link', { name: 'My purchases' }).click();
    await page.getByRole('heading', { level: 1, name: 'My purchases' }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await account.isVisible()).toBe(false);
    await expect.poll(() => page.evaluate<string>('document.activeElement?.id ?? ""')).toBe('main');

    // The page already shown: closed, the focus back on the button.
    await menu.click();
    await account.getByRole('link', { name: 'My purchases' }).click();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await focused(page)).toBe('button: Menu');

    // At 1280 px nothing changed: no button, every link in the row.
    await page.setViewportSize(DESKTOP);
    expect(await menu.isVisible()).toBe(false);
    expect(await main.getByRole('link', { name: 'Bookmarks' }).isVisible()).toBe(true);
    expect(await account.getByRole('link', { name: 'Settings' }).isVisible()).toBe(true);
    await context.close();
  });

  it('shows a visitor the brand and Sign in on one row, without a menu', async () => {
    const context = await site().browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${site().baseUrl}/`);
    await page.getByRole('heading', { level: 1, name: 'Courses' }).waitFor();
    const header = page.getByRole('banner');
    const signIn = header.getByRole('link', { name: 'Sign in' });
    // The header knows the visitor once the session check answers, which can follow the page's heading.
    await signIn.waitFor();
    expect(await header.getByRole('button', { name: 'Menu' }).count()).toBe(0);
    expect(
      Math.abs((await middle(header.getByRole('link', { name: 'Typed Academy' }))) - (await middle(signIn))),
    ).toBeLessThan(4);
    await checkScreen(page, 'nav-header-signed-out', { axe: true });
    await context.close();
  });

  it('shows the course outline beside the lesson with progress, leads through previous and next, and marks the course complete', async () => {
    const { baseUrl, db } = site();
    const { page, context, user } = await learner(site(), 'finisher@example.com');
    // Seven lessons done already; Narrowing and Exhaustive checks are left.
    for (const title of LESSONS.slice(0, 7)) {
      await LessonProgress.query(db).insert({
        userId: user.id,
        lessonId: demo.lesson(title).id,
        completedAt: new Date(),
      });
    }
    const narrowing = demo.lesson('Narrowing');
    const exhaustive = demo.lesson('Exhaustive checks');
    await page.goto(`${baseUrl}${narrowing.path}`);
    await page.getByRole('heading', { level: 1, name: 'Narrowing' }).waitFor();
    const outline = page.getByRole('navigation', { name: 'Course outline' });
    await outline.getByRole('link', { name: 'Narrowing' }).waitFor();

    // The outline: every lesson, this one current, done and not done, the course's progress.
    expect(await outline.locator('#outline-modules').getByRole('link').count()).toBe(9);
    const current = outline.locator('a[aria-current="page"]');
    expect(await current.count()).toBe(1);
    expect(await current.textContent()).toBe('Narrowing');
    expect(await outline.getByText('Completed:').count()).toBe(7);
    expect(await outline.getByText('Not completed yet:').count()).toBe(2);
    expect(await outline.getByText('Locked:').count()).toBe(0);
    expect(await outline.getByRole('progressbar', { name: 'Course progress' }).getAttribute('aria-valuenow')).toBe(
      '78',
    );
    await outline.getByText('Lesson 8 of 9').waitFor();
    // The title once: the body's own "Narrowing" heading is not shown under the page's.
    expect(await page.getByRole('heading', { name: 'Narrowing', exact: true }).count()).toBe(1);
    await page.getByText('discriminated unions').waitFor();
    // Beside the lesson at 1280 px: the outline on the left, level with the lesson's title.
    const outlineBox = (await outline.boundingBox())!;
    const titleBox = (await page.getByRole('heading', { level: 1 }).boundingBox())!;
    expect(outlineBox.x + outlineBox.width).toBeLessThan(titleBox.x);
    expect(titleBox.y).toBeLessThan(outlineBox.y + outlineBox.height);
    await checkScreen(page, 'nav-lesson', { axe: true });

    // Previous and next at the end of the lesson.
    const pager = page.getByRole('navigation', { name: 'Previous and next lesson' });
    expect(await pager.getByRole('link', { name: /^Previous lesson/ }).getAttribute('href')).toBe(
      demo.lesson('Union types').path,
    );
    await page.getByRole('button', { name: 'Mark complete' }).click();
    await page.getByRole('button', { name: 'Mark incomplete' }).waitFor();
    // The outline follows at once; one lesson is still left, so no course complete yet.
    await expect.poll(() => outline.getByText('Completed:').count()).toBe(8);
    expect(await outline.getByRole('progressbar', { name: 'Course progress' }).getAttribute('aria-valuenow')).toBe(
      '89',
    );
    expect(await page.getByText('You finished').count()).toBe(0);
    await pager.getByRole('link', { name: /^Next lesson/ }).click();

    // The last lesson left.
    await page.getByRole('heading', { level: 1, name: 'Exhaustive checks' }).waitFor();
    expect(page.url()).toBe(`${baseUrl}${exhaustive.path}`);
    await expect.poll(() => outline.locator('a[aria-current="page"]').textContent()).toBe('Exhaustive checks');
    expect(await pager.getByRole('link', { name: /^Previous lesson/ }).getAttribute('href')).toBe(narrowing.path);
    expect(await pager.getByRole('link', { name: /^Next lesson/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Mark complete' }).click();

    // The moment: announced (a status), named, with where to go next.
    const finished = page.getByRole('status').filter({ hasText: 'You finished TypeScript Fundamentals' });
    await finished.getByRole('heading', { name: 'You finished TypeScript Fundamentals' }).waitFor();
    await finished.getByText('All 9 lessons done.').waitFor();
    expect(await finished.getByRole('link', { name: 'Course page' }).getAttribute('href')).toBe(demo.coursePath);
    expect(await outline.getByRole('progressbar', { name: 'Course progress' }).getAttribute('aria-valuenow')).toBe(
      '100',
    );
    await checkScreen(page, 'nav-course-complete', { axe: true });
    expect(await LessonProgress.query(db).where({ userId: user.id }).whereNotNull('completedAt').resultSize()).toBe(9);

    // My learning and the course page agree.
    await finished.getByRole('link', { name: 'Back to My learning' }).click();
    await page.getByRole('heading', { level: 1, name: 'My learning' }).waitFor();
    const card = page.getByRole('listitem').filter({ hasText: 'TypeScript Fundamentals' });
    await card.getByText('Course complete').waitFor();
    expect(
      await card
        .getByRole('progressbar', { name: 'Progress in TypeScript Fundamentals' })
        .getAttribute('aria-valuenow'),
    ).toBe('100');
    await page.goto(`${baseUrl}${demo.coursePath}`);
    await page.getByText('You have completed every lesson of this course.').waitFor();
    await page.getByText('Course complete').waitFor();
    expect(await page.getByRole('link', { name: 'Continue where you left off' }).count()).toBe(0);

    // Taking a lesson back: no longer complete, and no moment for un-completing.
    await page.goto(`${baseUrl}${exhaustive.path}`);
    await page.getByRole('button', { name: 'Mark incomplete' }).click();
    await page.getByRole('button', { name: 'Mark complete' }).waitFor();
    expect(await page.getByText('You finished').count()).toBe(0);
    await expect.poll(() => outline.getByText('Completed:').count()).toBe(8);
    await context.close();
  });

  it('puts the outline above the lesson on a phone, folded, and shows a visitor what is free and what is locked', async () => {
    const context = await site().browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${site().baseUrl}${demo.lesson('Welcome').path}`);
    await page.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();
    const outline = page.getByRole('navigation', { name: 'Course outline' });
    const toggle = outline.getByRole('button', { name: 'All lessons' });
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await outline.getByRole('link', { name: 'Narrowing' }).isVisible()).toBe(false);
    // Above the lesson's title.
    const outlineBox = (await outline.boundingBox())!;
    expect(outlineBox.y + outlineBox.height).toBeLessThanOrEqual(
      (await page.getByRole('heading', { level: 1 }).boundingBox())!.y,
    );
    await keepScreenshot(page, 'nav-lesson-outline-folded-390');

    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await outline.getByRole('link', { name: 'Narrowing' }).waitFor();
    expect(await outline.getByText('Locked:').count()).toBe(6); // 9 lessons, 3 open to everyone
    expect(await outline.getByText('Free', { exact: true }).count()).toBe(3);
    expect(await outline.getByRole('progressbar').count()).toBe(0); // nothing to track for a visitor
    expect(await seriousViolations(page)).toEqual([]);
    await keepScreenshot(page, 'nav-lesson-outline-open-390');

    // Choosing a lesson there opens it, with the outline folded again.
    await outline.getByRole('link', { name: 'Union types' }).click();
    await page.getByRole('heading', { level: 1, name: 'Union types' }).waitFor();
    expect(await outline.getByRole('button', { name: 'All lessons' }).getAttribute('aria-expanded')).toBe('false');
    await context.close();
  });

  it('gives every route its own tab title', async () => {
    const { browser, baseUrl } = site();
    const { page, context } = await learner(site(), 'titles@example.com');
    const visitor = await (await browser.newContext()).newPage();
    const routes: [Page, string, string | RegExp][] = [
      [page, '/', 'Courses you can study at your own pace'],
      [page, '/products/typescript-fundamentals', /TypeScript Fundamentals/],
      [page, demo.coursePath, /^TypeScript Fundamentals/],
      [page, demo.lesson('Primitive types').path, 'Primitive types · TypeScript Fundamentals'],
      [page, `${demo.coursePath}/lessons/no-such-lesson`, 'Lesson not found'],
      [page, '/courses/no-such-course', 'Course not found'],
      [page, '/learning', 'My learning'],
      [page, '/bookmarks', 'Bookmarks'],
      [page, '/settings', 'Settings'],
      [page, '/activate', 'Connect a device'],
      [page, '/devices', 'My devices'],
      [page, '/purchases', 'My purchases'],
      [page, '/invoices', 'Invoices'],
      [page, '/invoices/00000000-0000-4000-8000-000000000000', 'Invoice'],
      [page, '/thanks?checkout=00000000-0000-4000-8000-000000000000', SPECIFIC],
      [page, '/teams/00000000-0000-4000-8000-000000000000', SPECIFIC],
      [page, '/invites/no-such-invite', SPECIFIC],
      [page, '/transfers/00000000-0000-4000-8000-000000000000', SPECIFIC],
      [page, '/no-such-page', 'Page not found'],
      [visitor, '/login', 'Sign in'],
      [visitor, '/login/continue', 'Finish signing in'],
    ];
    const seen: string[] = [];
    for (const [tab, path, title] of routes) {
      await tab.goto(`${baseUrl}${path}`);
      await tab.getByRole('heading', { level: 1 }).first().waitFor();
      // The route's own title once its data is in (pages say "Course", "Lesson" … while they load), then the school's.
      const shown = async () => (await tab.title()).replace(/ — Typed Academy$/, '');
      if (typeof title === 'string') await expect.poll(shown, { message: path }).toBe(title);
      else await expect.poll(shown, { message: path }).toMatch(title);
      // Never the HTML page's generic one (the school's name alone).
      expect(await tab.title(), path).toMatch(/. — Typed Academy$/);
      seen.push(`${path}: ${await shown()}`);
    }
    console.log(`titles: ${seen.join('; ')}`);
    await visitor.context().close();
    await context.close();
  });

  it('draws each kind of button the same whether it is a button or a link, in the light and the dark theme', async () => {
    const { page, context, user } = await learner(site(), 'buttons@example.com');
    for (const theme of ['light', 'dark'] as const) {
      // The learner's display preference, as the settings page saves it (the Layout applies it: display.ts).
      await UserPrefs.query(site().db).delete().where({ userId: user.id, type: 'global' });
      await UserPrefs.query(site().db).insert({ userId: user.id, type: 'global', fields: { theme } });
      await page.goto(`${site().baseUrl}${demo.coursePath}`);
      await page.getByRole('link', { name: 'Start the course' }).waitFor();
      await expect.poll(() => page.evaluate<string | undefined>('document.documentElement.dataset.theme')).toBe(theme);
      // One of each kind, as buttons and as links, in the page's own context (colours, fonts).
      const looks = await page.evaluate<Record<string, string>>(`(() => {
        const main = document.querySelector('main');
        const look = (html) => {
          const holder = document.createElement('div');
          holder.innerHTML = html;
          main.append(holder);
          const s = getComputedStyle(holder.firstElementChild);
          const value = [s.backgroundColor, s.color, s.borderTopColor, s.borderTopWidth, s.borderRadius, s.paddingTop,
            s.paddingLeft, s.fontSize, s.lineHeight, s.textDecorationLine].join(' | ');
          holder.remove();
          return value;
        };
        return {
          primaryButton: look('<button type="button">Go</button>'),
          primaryLink: look('<a class="button-link" href="/">Go</a>'),
          quietButton: look('<button type="button" class="button-quiet">Go</button>'),
          quietLink: look('<a class="button-link button-link-quiet" href="/">Go</a>'),
          danger: look('<button type="button" class="button-danger">Go</button>'),
        };
      })()`);
      expect(looks.primaryLink, theme).toBe(looks.primaryButton);
      expect(looks.quietLink, theme).toBe(looks.quietButton);
      expect(looks.primaryButton, theme).not.toBe(looks.quietButton);
      // Readable in this theme: the text on each kind's background.
      for (const [kind, value] of Object.entries(looks)) {
        const [background, color] = value.split(' | ');
        expect(contrast(background!, color!), `${kind} in the ${theme} theme`).toBeGreaterThanOrEqual(4.5);
      }
      if (theme === 'dark') {
        await checkScreen(page, 'nav-course-dark', { axe: true });
        await page.goto(`${site().baseUrl}${demo.lesson('Primitive types').path}`);
        await page.getByRole('button', { name: 'Mark complete' }).waitFor();
        await page.getByRole('navigation', { name: 'Course outline' }).getByRole('progressbar').waitFor();
        await checkScreen(page, 'nav-lesson-dark', { axe: true });
      }
    }
    await context.close();
  });
});

/** WCAG contrast ratio of two `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (rgb: string) => {
    const [r, g, b] = rgb
      .match(/[\d.]+/g)!
      .slice(0, 3)
      .map((v) => {
        const c = Number(v) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
}
