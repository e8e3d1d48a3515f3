import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runSeeds } from '../../seeds/run';
import { signedIn, type SignedIn } from '../support/auth';
import { STOREFRONT_WIDTHS, checkScreen, contextFor, useDemoSite } from '../support/browser';

// Taking a quiz lesson on the storefront (docs/domain.md §11) with the keyboard alone, at a phone's and a laptop's
// width: the demo's Union types quiz, one question of each type, shuffled per attempt. Nothing of the answers reaches
// the browser before the answers are sent: not the page's HTML, not any answer of the API.

/** What only the graded answer may carry: explanations, and the names of the fields that say what is right. */
const BEFORE_SUBMITTING_NEVER = [
  'Either member will do.',
  'That is an intersection.',
  'A union holds a value of any one of its members.',
  'Comments are not read.',
  '"correct"',
  '"accepted"',
  '"explanation"',
];
const RIGHT_ORDER = ['Declare a value of a union type', 'Check which member it is', 'Use the member-specific methods'];

/** Whether the focused element's text (or its label's) matches. */
const focusedText = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return '';
    const label = el.closest('label') ?? (el.id ? document.querySelector(`label[for="${el.id}"]`) : null);
    return `${el.tagName}:${(el as HTMLInputElement).type ?? ''}:${(label ?? el).textContent?.trim() ?? ''}`;
  });

/**
 * Presses Tab (or Shift+Tab, toward the target) until the focus is on the element whose text matches: the way a
 * keyboard reaches a control.
 */
async function tabTo(page: Page, selector: string, text: string | RegExp): Promise<void> {
  const target = page.locator(selector).filter({ hasText: text }).first();
  for (let i = 0; i < 80; i++) {
    const here = await target.evaluate(
      (el) =>
        el === document.activeElement ||
        el.contains(document.activeElement) ||
        el.closest('label')?.contains(document.activeElement),
    );
    if (here) return;
    const before = await target.evaluate(
      (el) =>
        !!document.activeElement &&
        !!(el.compareDocumentPosition(document.activeElement) & Node.DOCUMENT_POSITION_FOLLOWING),
    );
    await page.keyboard.press(before ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`the keyboard never reached ${selector} “${text}”; focus is on ${await focusedText(page)}`);
}

/** Answers every question right with the keyboard alone, whatever order this attempt shows them in. */
async function answerRight(page: Page) {
  const quiz = page.locator('.quiz-form');
  // Single choice: into the radio group, then arrow keys until the right one is checked.
  await tabTo(page, '.quiz-choice', /string or a number|string and a number|Only null/);
  for (let i = 0; i < 3 && !(await quiz.getByLabel('A string or a number').isChecked()); i++)
    await page.keyboard.press('ArrowDown');
  expect(await quiz.getByLabel('A string or a number').isChecked()).toBe(true);
  // Multiple choice: Space on each right box.
  for (const choice of ['A typeof check', 'An in check']) {
    await tabTo(page, '.quiz-choice', choice);
    await page.keyboard.press('Space');
    expect(await quiz.getByLabel(choice).isChecked()).toBe(true);
  }
  // Short answer: typed.
  await tabTo(page, '.quiz-question', /has no values at all/);
  const field = quiz.getByRole('textbox', { name: 'Your answer' });
  await tabTo(page, '.quiz-question:has(input[type=text])', /Your answer/);
  await field.evaluate((el) => el === document.activeElement || Promise.reject(new Error('not focused')));
  await page.keyboard.type('  Never ');
  // Ordering: each item in turn moved up to its place with its Move up button (the focus follows the item).
  const items = () => quiz.locator('.quiz-ordering li > span:first-child').allTextContents();
  for (const [place, text] of RIGHT_ORDER.entries()) {
    const at = (await items()).indexOf(text);
    if (at > place) await tabTo(page, '.quiz-ordering button', `Move up: ${text}`);
    for (let k = at; k > place; k--) await page.keyboard.press('Enter');
  }
  await expect.poll(items).toEqual(RIGHT_ORDER);
}

describe('taking a quiz with the keyboard only, in Chromium', () => {
  let learner: SignedIn;
  const site = useDemoSite(async (db) => {
    await runSeeds(db, { demo: true });
    learner = await signedIn(db, ['learner'], 'quiz-taker@example.com');
  });

  it('answers, passes and reads the explanations at 1280 and 390 px; no answer is in the browser before', async () => {
    const { browser, baseUrl, db } = site();
    const lesson = await db('contentResources').whereRaw(`fields->>'title' = 'Union types'`).first();
    const course = await db('contentResources').whereRaw(`fields->>'title' = 'TypeScript Fundamentals'`).first();
    const path = `/courses/${course.fields.slug}/lessons/${lesson.fields.slug}`;

    // The page as served (a free lesson is rendered on the server): its questions, none of its answers.
    const html = await (await fetch(`${baseUrl}${path}`)).text();
    expect(html).toContain('What may a value of type string | number be?');
    for (const secret of BEFORE_SUBMITTING_NEVER) expect(html).not.toContain(secret);

    const context = await contextFor(browser, baseUrl, learner);
    const page = await context.newPage();
    const bodies: Promise<string>[] = [];
    let submitted = false;
    page.on('response', (response) => {
      if (!submitted && response.url().includes('/api/')) bodies.push(response.text().catch(() => ''));
    });

    for (const [round, [width, height]] of STOREFRONT_WIDTHS.entries()) {
      await page.setViewportSize({ width, height });
      await page.goto(`${baseUrl}${path}`);
      const form = page.locator('.quiz-form');
      await form.getByRole('button', { name: 'Submit answers' }).waitFor();
      // A quiz lesson is completed by passing it, never by hand: no Mark complete button.
      const byHand = page.getByRole('button', { name: /^Mark (in)?complete$/ });
      expect(await byHand.count()).toBe(0);
      if (round === 0) {
        expect(await page.getByRole('region', { name: 'Quiz' }).textContent()).toContain('Pass mark 75 %');
        await checkScreen(page, 'quiz-form', { axe: true });
        await page.setViewportSize({ width, height });
        // Sent with nothing answered (an early click, Enter in a text field): the learner is told which questions
        // are unanswered before an attempt is used up.
        await form.getByRole('button', { name: 'Submit answers' }).click();
        // The single, multiple and short answer questions, wherever this attempt shows them; the ordering has its order.
        await form
          .getByRole('alert')
          .getByText(/^Questions \d, \d and \d have no answer yet/)
          .waitFor();
        expect(await db('quizAttempts').where({ userId: learner.user.id })).toEqual([]);
      }
      await page.locator('h1').click(); // the keyboard starts from the top of the lesson
      await answerRight(page);
      for (const body of await Promise.all(bodies))
        for (const secret of BEFORE_SUBMITTING_NEVER) expect(body).not.toContain(secret);
      expect(await page.content()).not.toContain('Either member will do.');

      submitted = true;
      await tabTo(page, '.quiz-form button[type=submit]', 'Submit answers');
      await page.keyboard.press('Enter');
      const result = page.getByRole('heading', { name: 'Passed: you scored 100 %' });
      await result.waitFor();
      // The focus moves to the result, which now explains: the question's and the picked choice's explanations.
      await expect.poll(() => result.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.getByText('The lesson is complete.').waitFor();
      await page.getByText('A union holds a value of any one of its members.').waitFor();
      await page.getByText(/You chose “A string or a number”: right\. Either member will do\./).waitFor();
      await page.locator('.lesson-complete .complete-badge').getByText('Completed').waitFor();
      expect(await byHand.count()).toBe(0);
      if (round === 0) await checkScreen(page, 'quiz-result', { axe: true });
      submitted = false;
    }
    const attempts = await db('quizAttempts').where({ userId: learner.user.id, lessonId: lesson.id });
    expect(attempts.map((a) => a.passed)).toEqual([true, true]);
    await context.close();
  });
});
