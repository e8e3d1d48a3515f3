import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCourse, createProduct, createPurchase, quizLesson, type QuizInput } from '../../seeds/factories';
import { LessonVideo, type Product } from '../support/models';
import { testApp } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

// Quiz lessons (docs/domain.md §11): questions without their answers until an attempt is in, grading, the attempt
// limit under a lock, a pass completing the lesson, and a course whose certificate waits for its quizzes.

const SECRET = 'explained-only-after';
const QUESTIONS: QuizInput['questions'] = [
  {
    id: 'q-single',
    kind: 'single',
    prompt: 'Which keyword declares a constant?',
    explanation: `${SECRET} const is block-scoped`,
    choices: [
      { id: 'c-let', text: 'let', correct: false, explanation: `${SECRET} let can be reassigned` },
      { id: 'c-const', text: 'const', correct: true, explanation: `${SECRET} right` },
      { id: 'c-var', text: 'var', correct: false },
    ],
  },
  {
    id: 'q-multiple',
    kind: 'multiple',
    prompt: 'Which are primitive types?',
    choices: [
      { id: 'm-string', text: 'string', correct: true },
      { id: 'm-number', text: 'number', correct: true },
      { id: 'm-array', text: 'Array', correct: false },
    ],
  },
  {
    id: 'q-short',
    kind: 'short',
    prompt: 'What does tsc stand for?',
    accepted: ['TypeScript   Compiler'],
    pattern: 'type ?script comp(iler)?',
  },
  {
    id: 'q-order',
    kind: 'ordering',
    prompt: 'Put the steps in order',
    items: [
      { id: 'o-write', text: 'Write' },
      { id: 'o-compile', text: 'Compile' },
      { id: 'o-run', text: 'Run' },
    ],
  },
];
const quiz = (settings: Partial<QuizInput> = {}) => quizLesson(QUESTIONS, settings);
const RIGHT = {
  'q-single': 'c-const',
  'q-multiple': ['m-number', 'm-string'],
  'q-short': '  typescript COMPILER ',
  'q-order': ['o-write', 'o-compile', 'o-run'],
};

/** What a learner's browser must never see before submitting: a flag, an explanation, an accepted answer or pattern. */
function assertNoAnswer(body: unknown) {
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/"correct"|"accepted"|"pattern"|"explanation"/);
  expect(text).not.toContain(SECRET);
  expect(text).not.toMatch(/TypeScript {3}Compiler|comp\(iler\)/);
  expect(text).not.toMatch(/o-write"[^\]]*o-compile"[^\]]*o-run"/); // the items never in their right order
}

describe('quiz lessons (docs/domain.md §11)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const app = () => testApp(db());
  let product: Product;
  let slug: string;
  let courseId: string;
  let intro: { id: string };
  let quizLesson: { id: string };
  let outro: { id: string };
  let admin: SignedIn;

  beforeAll(async () => {
    admin = await signedIn(db(), ['admin']);
    product = await createProduct(db(), { name: 'Quiz Course' });
    const made = await createCourse(
      db(),
      {
        title: 'Quiz Course',
        fields: { quizzesRequired: true },
        modules: [
          {
            title: 'One',
            sections: [
              {
                title: 'A',
                lessons: [
                  { title: 'Intro', body: '<p>Intro</p>' },
                  { title: 'Check', body: '<p>Check yourself</p>', fields: quiz() },
                  { title: 'Outro', body: '<p>Outro</p>' },
                ],
              },
            ],
          },
        ],
      },
      { products: [product] },
    );
    slug = made.course.fields.slug!;
    courseId = made.course.id;
    [intro, quizLesson, outro] = [made.lessons[0]!, made.lessons[1]!, made.lessons[2]!];
  });

  const store = (who: SignedIn | undefined, method: 'get' | 'put' | 'post' | 'delete', path: string) =>
    as(who, request(app())[method](`/api/store${path}`));
  const submit = (who: SignedIn, answers: object, lessonId = quizLesson.id) =>
    store(who, 'post', `/lessons/${lessonId}/quiz/attempts`).send({ answers });
  const holder = async () => {
    const learner = await signedIn(db());
    await createPurchase(db(), { user: learner.user, product });
    return learner;
  };
  const setQuiz = async (fields: object) =>
    as(admin, request(app()).put(`/api/admin/content-resources/${quizLesson.id}`)).send({
      fields: { title: 'Check', body: '<p>Check yourself</p>', state: 'published', visibility: 'public', ...fields },
    });

  it('gives the questions and choices, never an answer, in every body a learner reads before submitting', async () => {
    const learner = await holder();
    const lesson = await store(learner, 'get', `/courses/${slug}/lessons/${quizLesson.id}`);
    expect(lesson.status).toBe(200);
    expect(lesson.body.content.kind).toBe('quiz');
    expect(lesson.body.content.quiz).toMatchObject({ passPercent: 75, maxAttempts: null, keep: 'best' });
    const shown = lesson.body.content.quiz.questions as { id: string; choices?: { id: string; text: string }[] }[];
    expect(shown.map((q) => q.id).sort()).toEqual(['q-multiple', 'q-order', 'q-short', 'q-single']);
    expect(
      shown
        .find((q) => q.id === 'q-single')!
        .choices!.map((c) => c.text)
        .sort(),
    ).toEqual(['const', 'let', 'var']);

    const state = await store(learner, 'get', `/lessons/${quizLesson.id}/quiz`);
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({ attemptsUsed: 0, attemptsLeft: null, kept: null });
    expect(state.body.questions).toHaveLength(4);
    const course = await store(learner, 'get', `/courses/${slug}`);
    for (const body of [lesson.body, state.body, course.body]) assertNoAnswer(body);

    // A visitor reads the course page but not the quiz, and cannot take it.
    assertNoAnswer((await store(undefined, 'get', `/courses/${slug}/lessons/${quizLesson.id}`)).body);
    expect((await store(undefined, 'get', `/lessons/${quizLesson.id}/quiz`)).status).toBe(401);
  });

  it('shuffles questions and choices per attempt, from a seed kept on the attempt', async () => {
    const learner = await holder();
    const orders = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const state = await store(learner, 'get', `/lessons/${quizLesson.id}/quiz`);
      orders.add(JSON.stringify(state.body.questions));
      // The same attempt shows the same order however often it is read.
      expect((await store(learner, 'get', `/lessons/${quizLesson.id}/quiz`)).body.questions).toEqual(
        state.body.questions,
      );
      expect((await submit(learner, {})).status).toBe(201);
    }
    expect(orders.size).toBeGreaterThan(1);
    const seeds = await db()('quizAttempts').where({ userId: learner.user.id }).pluck('seed');
    expect(new Set(seeds).size).toBe(4);
  });

  it('grades an attempt, explains only then, and a pass completes the lesson', async () => {
    const learner = await holder();
    const failed = await submit(learner, {
      ...RIGHT,
      'q-single': 'c-let',
      'q-order': ['o-run', 'o-write', 'o-compile'],
    });
    expect(failed.status).toBe(201);
    expect(failed.body).toMatchObject({ score: 50, passed: false, progress: null });
    const single = failed.body.results.find((r: { questionId: string }) => r.questionId === 'q-single');
    expect(single).toEqual({
      questionId: 'q-single',
      correct: false,
      explanation: `${SECRET} const is block-scoped`,
      picked: [{ id: 'c-let', correct: false, explanation: `${SECRET} let can be reassigned` }],
    });
    const progress = () => db()('lessonProgress').where({ userId: learner.user.id, lessonId: quizLesson.id }).first();
    expect(await progress()).toBeUndefined();

    const passed = await submit(learner, RIGHT);
    expect(passed.body).toMatchObject({
      score: 100,
      passed: true,
      progress: { lessonId: quizLesson.id, completed: true },
    });
    expect(passed.body.attempt).toEqual({ number: 2, attemptsLeft: null, kept: { score: 100, passed: true } });
    expect((await progress()).completedAt).not.toBeNull();

    // The pattern takes what the accepted list does not; a wrong answer still fails it.
    const short = async (text: string) =>
      (await submit(learner, { 'q-short': text })).body.results.find(
        (r: { questionId: string }) => r.questionId === 'q-short',
      ).correct;
    expect(await short('Typescript Comp')).toBe(true);
    expect(await short('JavaScript compiler')).toBe(false);
  });

  it('completes a quiz lesson by a passing attempt alone: not by hand nor by its video; a pass stays complete', async () => {
    const learner = await holder();
    const progress = (lessonId = quizLesson.id) =>
      db()('lessonProgress').where({ userId: learner.user.id, lessonId }).first();
    const byHand = await store(learner, 'put', `/progress/lessons/${quizLesson.id}`).send({ course: courseId });
    expect(byHand.status).toBe(409);
    expect(byHand.body.code).toBe('quiz-completes-by-passing');
    // Its video watched to the end does not complete it either.
    const video = await LessonVideo.query(db()).insert({
      lessonId: quizLesson.id,
      status: 'ready',
      progress: 100,
      version: 1,
      sourceKey: 'videos/quiz/source/v1.mp4',
      sourceName: 'quiz.mp4',
      sourceSize: 1,
      durationMs: 100_000,
      hlsKey: 'videos/quiz/v1/master.m3u8',
    });
    try {
      const watched = await store(learner, 'put', `/lessons/${quizLesson.id}/position`).send({ positionSeconds: 100 });
      expect(watched.status).toBe(200);
      expect(watched.body).toMatchObject({ completed: false, progress: null });
    } finally {
      await LessonVideo.query(db()).deleteById(video.id);
    }
    expect(await progress()).toBeUndefined();

    expect((await store(learner, 'put', `/progress/lessons/${intro.id}`).send({ course: courseId })).status).toBe(200);
    expect((await submit(learner, RIGHT)).body.progress).toMatchObject({ lessonId: quizLesson.id, completed: true });
    // Nor is a pass taken back by hand; resetting its module forgets the rest and keeps the pass.
    const unticked = await store(learner, 'delete', `/progress/lessons/${quizLesson.id}?course=${slug}`);
    expect(unticked.status).toBe(409);
    expect(unticked.body.code).toBe('quiz-completes-by-passing');
    const { moduleId } = await progress(intro.id);
    const reset = await store(learner, 'post', `/courses/${slug}/modules/${moduleId}/reset`);
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ completed: 1, total: 3 });
    expect(await progress(intro.id)).toBeUndefined();
    expect((await progress()).completedAt).not.toBeNull();
  });

  it('refuses answers naming what the quiz does not have, and a locked quiz', async () => {
    const learner = await holder();
    for (const answers of [
      { nope: 'x' },
      { 'q-single': 'c-nope' },
      { 'q-single': ['c-const'] },
      { 'q-order': 'o-run' },
    ]) {
      const refused = await submit(learner, answers);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('quiz-answer-invalid');
    }
    expect(await db()('quizAttempts').where({ userId: learner.user.id })).toEqual([]);
    const outsider = await signedIn(db());
    expect((await submit(outsider, RIGHT)).body.code).toBe('lesson-locked');
    expect((await submit(learner, RIGHT, intro.id)).status).toBe(404); // not a quiz
  });

  it('keeps the attempt limit when attempts are sent at once', async () => {
    expect((await setQuiz(quiz({ maxAttempts: 2, keep: 'last' }))).status).toBe(200);
    const learner = await holder();
    const answers = await Promise.all(Array.from({ length: 8 }, () => submit(learner, RIGHT)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 409, 409, 409, 409, 409, 409]);
    expect(answers.find((a) => a.status === 409)!.body.code).toBe('quiz-attempts-used-up');
    const rows = await db()('quizAttempts').where({ userId: learner.user.id }).orderBy('number');
    expect(rows.map((r) => r.number)).toEqual([1, 2]);
    const state = await store(learner, 'get', `/lessons/${quizLesson.id}/quiz`);
    expect(state.body).toMatchObject({ attemptsUsed: 2, attemptsLeft: 0, questions: null });
    expect((await setQuiz(quiz())).status).toBe(200);
  });

  // A quiz keeping the last attempt: passed once (the lesson complete), then failed, its kept result is a fail.
  const passThenFail = async (learner: SignedIn) => {
    expect((await submit(learner, RIGHT)).body.progress).toMatchObject({ completed: true, certificate: null });
    expect((await submit(learner, {})).body).toMatchObject({ passed: false, attempt: { kept: { passed: false } } });
  };

  it('waits with the certificate until every quiz the course requires is passed', async () => {
    expect((await setQuiz(quiz({ keep: 'last' }))).status).toBe(200);
    const learner = await holder();
    await passThenFail(learner);
    const complete = (id: string) => store(learner, 'put', `/progress/lessons/${id}`).send({ course: courseId });
    for (const lesson of [intro, outro]) expect((await complete(lesson.id)).body.certificate).toBeNull();
    const certificates = () => db()('certificates').where({ userId: learner.user.id });
    expect(await certificates()).toEqual([]);
    // The learner's list catches up on finished courses: it too waits for the quiz.
    expect((await store(learner, 'get', '/certificates')).status).toBe(200);
    expect(await certificates()).toEqual([]);

    const passed = await submit(learner, RIGHT);
    expect(passed.body.progress.certificate).toEqual({ id: expect.any(String) });
    expect(await certificates()).toHaveLength(1);
    expect((await setQuiz(quiz())).status).toBe(200);
  });

  it('does not wait for quizzes in a course that does not require them', async () => {
    await db()('contentResources')
      .where({ id: courseId })
      .update({ fields: db().raw(`fields || '{"quizzesRequired": false}'::jsonb`) });
    expect((await setQuiz(quiz({ keep: 'last' }))).status).toBe(200);
    const learner = await holder();
    await passThenFail(learner);
    for (const lesson of [intro, outro])
      await store(learner, 'put', `/progress/lessons/${lesson.id}`).send({ course: courseId });
    expect(await db()('certificates').where({ userId: learner.user.id })).toHaveLength(1);
    expect((await setQuiz(quiz())).status).toBe(200);
    await db()('contentResources')
      .where({ id: courseId })
      .update({ fields: db().raw(`fields || '{"quizzesRequired": true}'::jsonb`) });
  });

  it('refuses in the console a pattern that could run away, or a question without a right answer', async () => {
    // Questions the console is to refuse, so not held to a question's type here.
    const questions = (question: object) =>
      quiz({ questions: [{ id: 'q1', prompt: 'Say it', ...question } as QuizInput['questions'][number]] });
    for (const pattern of ['(a+)+$', '(a|aa)*b', '(x\\w*)*', '([a-z]+)*', '(.*){2,}', 'a*b*c*d*', '(\\d)\\1', '(']) {
      const refused = await setQuiz(questions({ kind: 'short', accepted: [], pattern }));
      expect(refused.status, pattern).toBe(400);
      expect(Object.keys(refused.body.errors)).toEqual(['fields.quiz.questions.0.pattern']);
    }
    const noRight = await setQuiz(
      questions({
        kind: 'single',
        choices: [
          { id: 'a', text: 'A' },
          { id: 'b', text: 'B' },
        ],
      }),
    );
    expect(noRight.status).toBe(400);
    expect((await setQuiz(questions({ kind: 'short', accepted: [], pattern: 'colou?r' }))).status).toBe(200);
    expect((await setQuiz(quiz())).status).toBe(200);
  });

  it('shows the console each question’s miss rate, and exports it', async () => {
    const results = await as(admin, request(app()).get(`/api/admin/quizzes/${quizLesson.id}/results`));
    expect(results.status).toBe(200);
    const figures = results.body.data;
    const attempts = await db()('quizAttempts').where({ lessonId: quizLesson.id });
    expect(figures.attempts).toBe(attempts.length);
    const missedShort = attempts.filter(
      (a) => !a.results.find((r: { questionId: string }) => r.questionId === 'q-short').correct,
    ).length;
    expect(figures.questions.find((q: { questionId: string }) => q.questionId === 'q-short')).toMatchObject({
      attempts: attempts.length,
      missed: missedShort,
    });
    const rates = figures.questions.map((q: { missRate: number }) => q.missRate);
    expect(rates).toEqual([...rates].sort((a, b) => b - a));

    const csv = await as(admin, request(app()).get(`/api/admin/quizzes/${quizLesson.id}/results.csv`));
    expect(csv.status).toBe(200);
    expect(csv.text.split('\r\n')[0]).toContain('Miss rate (%)');
    expect(csv.text).toContain('What does tsc stand for?');
    const learner = await holder();
    expect((await as(learner, request(app()).get(`/api/admin/quizzes/${quizLesson.id}/results`))).status).toBe(403);
  });
});
