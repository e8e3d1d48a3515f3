import type { BrowserContext, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../api/src/db/connection';
import { Bookmark, Comment, ContentResource, Product, User } from '../support/models';
import { createPurchase, createUser } from '../../seeds/factories';
import { axeViolations, keepScreenshot, signedInContext, useDemoSite, type AxeViolation } from '../support/browser';

const describeViolations = (violations: AxeViolation[]) =>
  violations
    .map(
      (v) =>
        `[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${v.nodes.map((n) => `    ${n.target.join(' ')}\n      ${n.failureSummary?.replace(/\n/g, '\n      ')}`).join('\n')}`,
    )
    .join('\n');

type Paths = Awaited<ReturnType<typeof demoPaths>>;

interface Screen {
  name: string;
  path: string;
  /** What shows once the page has loaded its data. */
  ready: (page: Page) => Locator;
}

async function demoPaths(db: Db) {
  const course = (await ContentResource.query(db)
    .where({ type: 'course' })
    .whereRaw(`fields->>'title' = ?`, ['TypeScript Fundamentals'])
    .first())!;
  const lesson = (await ContentResource.query(db)
    .where({ type: 'lesson' })
    .whereRaw(`fields->>'title' = ?`, ['Types catch mistakes early'])
    .first())!;
  const coursePath = `/courses/${course.fields.slug}`;
  return {
    courseSlug: course.fields.slug!,
    coursePath,
    lessonId: lesson.id,
    lessonPath: `${coursePath}/lessons/${lesson.fields.slug}`,
  };
}

function screens(paths: Paths, signedIn: boolean): Screen[] {
  return [
    {
      name: 'home',
      path: '/',
      ready: (page) => page.getByRole('heading', { name: signedIn ? 'Continue learning' : 'TypeScript Pro' }),
    },
    {
      name: 'product',
      path: '/products/typescript-fundamentals',
      // Who owns the course is shown the way into it instead of the price.
      ready: (page) =>
        signedIn
          ? page.getByRole('link', { name: 'Go to your course' })
          : page.getByRole('region', { name: 'Price' }).getByText('$'),
    },
    {
      name: 'course',
      path: paths.coursePath,
      ready: (page) => page.getByRole('link', { name: signedIn ? 'Start the course' : 'Buy TypeScript Fundamentals' }),
    },
    {
      name: 'lesson',
      path: paths.lessonPath,
      ready: (page) =>
        signedIn
          ? page.getByRole('button', { name: 'Post comment' })
          : page.getByRole('heading', { name: 'Sign in to study this lesson' }),
    },
    { name: 'login', path: '/login', ready: (page) => page.getByRole('heading', { name: 'Sign in' }) },
    {
      name: 'activate',
      path: '/activate',
      ready: (page) =>
        page.getByRole('heading', { name: signedIn ? 'Enter the code shown on your device' : 'Sign in' }),
    },
    // The learner's own pages (a visitor is sent to sign in).
    ...(signedIn
      ? [
          {
            name: 'my learning',
            path: '/learning',
            ready: (page: Page) => page.getByRole('link', { name: 'Start the course' }),
          },
          {
            name: 'bookmarks',
            path: '/bookmarks',
            ready: (page: Page) => page.getByRole('button', { name: 'Remove' }),
          },
          { name: 'settings', path: '/settings', ready: (page: Page) => page.getByRole('radio', { name: 'Dark' }) },
        ]
      : []),
  ];
}

describe('storefront accessibility (axe-core in Chromium)', () => {
  const site = useDemoSite();
  let visitor: BrowserContext;
  let learner: BrowserContext;
  let paths: Paths;

  beforeAll(async () => {
    const { browser, baseUrl, db } = site();
    paths = await demoPaths(db);
    visitor = await browser.newContext();
    learner = await signedInContext(browser, baseUrl, db, ['learner'], 'a11y-learner@example.com');
    const user = (await User.query(db).findOne({ email: 'a11y-learner@example.com' }))!;
    await createPurchase(db, {
      user,
      product: (await Product.query(db).findOne({ slug: 'typescript-fundamentals' }))!,
    });
    // The lesson has a discussion: the learner's own comment (Edit, Delete), one a moderator hid, someone else's.
    const resourceId = paths.lessonId;
    const other = await createUser(db, { name: 'Another Learner' });
    await Comment.query(db).insert({ userId: user.id, text: 'My question about types.', context: { resourceId } });
    await Comment.query(db).insert({
      userId: user.id,
      text: 'Off topic.',
      context: { resourceId },
      hiddenAt: new Date(),
      hiddenReason: 'Not about this lesson',
    });
    await Comment.query(db).insert({ userId: other.id, text: 'A helpful answer.', context: { resourceId } });
    await Bookmark.query(db).insert({
      userId: user.id,
      resourceId,
      type: 'bookmark',
      fields: { courseSlug: paths.courseSlug, courseTitle: 'TypeScript Fundamentals' },
    });
  });

  for (const [who, signedIn] of [
    ['a visitor', false],
    ['a learner who bought the course', true],
  ] as const) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`finds no serious or critical violations for ${who}, ${colorScheme} theme, and no sideways scrolling at 360 px`, async () => {
        const context = signedIn ? learner : visitor;
        const page = await context.newPage();
        await page.emulateMedia({ colorScheme }); // the default theme follows the device
        const failures: string[] = [];
        const summary: string[] = [];
        for (const screen of screens(paths, signedIn)) {
          await page.setViewportSize({ width: 1280, height: 800 });
          await page.goto(`${site().baseUrl}${screen.path}`);
          await screen.ready(page).first().waitFor();
          const violations = await axeViolations(page);
          const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
          const counts = violations.reduce<Record<string, number>>(
            (all, v) => ({ ...all, [v.impact ?? 'unknown']: (all[v.impact ?? 'unknown'] ?? 0) + 1 }),
            {},
          );
          summary.push(`${screen.name}: ${violations.length ? JSON.stringify(counts) : 'none'}`);
          if (blocking.length) failures.push(`${screen.name} (${screen.path}):\n${describeViolations(blocking)}`);

          await page.setViewportSize({ width: 360, height: 740 });
          const width = await page.evaluate<number>('document.documentElement.scrollWidth');
          if (width > 360)
            failures.push(`${screen.name} (${screen.path}) scrolls sideways at 360 px: scrollWidth ${width}`);
          if (colorScheme === 'dark' && signedIn && (screen.name === 'course' || screen.name === 'lesson')) {
            await keepScreenshot(page, `storefront-${screen.name}-dark-360`);
          }
        }
        console.log(`axe, ${who}, ${colorScheme}: ${summary.join('; ')}`);
        expect(failures, failures.join('\n\n')).toEqual([]);
        await page.close();
      });
    }
  }

  it('reaches the main navigation and Mark complete with Tab, and Enter marks the lesson complete', async () => {
    const page = await learner.newPage();
    await page.goto(`${site().baseUrl}${paths.lessonPath}`);
    await page.getByRole('button', { name: /^Mark (in)?complete$/ }).waitFor();
    if ((await page.getByRole('button', { name: 'Mark incomplete' }).count()) > 0) {
      await page.getByRole('button', { name: 'Mark incomplete' }).click();
      await page.getByRole('button', { name: 'Mark complete' }).waitFor();
      await page.reload();
      await page.getByRole('button', { name: 'Mark complete' }).waitFor();
    }

    /** The focused element: "a in Main: My learning", "button: Mark complete". */
    const focused = () =>
      page.evaluate<string>(`(() => {
        const element = document.activeElement;
        if (!element || element === document.body) return '';
        const nav = element.closest('nav')?.getAttribute('aria-label');
        return element.tagName.toLowerCase() + (nav ? ' in ' + nav : '') + ': ' + (element.getAttribute('aria-label') ?? element.textContent ?? '').trim();
      })()`);
    const reached: string[] = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const now = await focused();
      reached.push(now);
      if (now === 'button: Mark complete') break;
    }
    expect(reached).toEqual(
      expect.arrayContaining([
        'a in Main: My learning',
        'a in Main: Bookmarks',
        'a in Account: Settings',
        'button: Mark complete',
      ]),
    );
    // The skip link comes first.
    expect(reached[0]).toBe('a: Skip to content');

    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Marked complete.' }).waitFor();
    expect(await focused()).toBe('button: Mark incomplete'); // the focus stays on the button
    await page.close();
  });
});
