import { describe, expect, it } from 'vitest';
import { runSeeds } from '../../seeds/run';
import { CONSOLE_WIDTHS, checkScreen, signedInContext, useDemoSite } from '../support/browser';
import { ContentResource } from '../support/models';

// Authoring a quiz lesson in the console (docs/domain.md §11): its rules and question list in the lesson's edit form,
// saved as the API's strict schema takes them, and its figures (each question's miss rate) on the lesson's page.
describe('a quiz lesson in the console (Chromium)', () => {
  let lessonId: string;
  const site = useDemoSite(async (db) => {
    await runSeeds(db, { demo: true });
    const lesson = await db('contentResources').whereRaw(`fields->>'title' = 'Union types'`).first();
    lessonId = lesson.id;
    const learner = await db('users').first('id');
    await db('quizAttempts').insert({
      lessonId,
      userId: learner.id,
      number: 1,
      seed: 1,
      correct: 3,
      total: 4,
      score: 75,
      passPercent: 75,
      passed: true,
      answers: JSON.stringify({}),
      results: JSON.stringify(
        ['union-meaning', 'narrowing-tools', 'never-name', 'narrowing-order'].map((questionId) => ({
          questionId,
          correct: questionId !== 'never-name',
          explanation: null,
          picked: [],
        })),
      ),
    });
  });

  it('edits the pass mark and a question, keeps every answer, and shows which questions are missed', async () => {
    const { browser, baseUrl, db } = site();
    const context = await signedInContext(browser, baseUrl, db, ['admin']);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/admin/#/content-resources/${lessonId}`);
    const passMark = page.getByRole('spinbutton', { name: 'Pass mark (%)' });
    await passMark.waitFor();
    const prompt = page.getByRole('textbox', { name: 'Question', exact: true }).first();
    expect(await prompt.inputValue()).toBe('What may a value of type string | number be?');
    // The whole edit page axe clean: the quiz's inputs and the form's toolbar (its Delete button's red) alike.
    await checkScreen(page, 'console-quiz-editor', { widths: CONSOLE_WIDTHS, axe: true });

    await passMark.fill('80');
    await prompt.fill('What may a value of type string | number hold?');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL((url) => url.hash === `#/content-resources/${lessonId}/show`);

    const quiz = (await ContentResource.query(db).findById(lessonId))!.fields.quiz as {
      passPercent: number;
      questions: { id: string; prompt: string; choices?: { id: string; correct: boolean }[] }[];
    };
    expect(quiz.passPercent).toBe(80);
    expect(quiz.questions.map((q) => q.id)).toEqual([
      'union-meaning',
      'narrowing-tools',
      'never-name',
      'narrowing-order',
    ]);
    expect(quiz.questions[0]!.prompt).toBe('What may a value of type string | number hold?');
    expect(quiz.questions[0]!.choices!.filter((c) => c.correct).map((c) => c.id)).toEqual(['either']);

    // The lesson's page: the quiz's figures, the question missed first.
    const results = page.getByRole('table', { name: 'Results' });
    await results.waitFor();
    const firstRow = results.getByRole('row').nth(1);
    await expect.poll(() => firstRow.textContent()).toContain('Which type has no values at all');
    expect(await firstRow.textContent()).toContain('100 %');
    expect(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
      `/api/admin/quizzes/${lessonId}/results.csv`,
    );
    await context.close();
  });
});
