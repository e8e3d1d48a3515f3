import type { Quiz, QuizAnswers, QuizQuestion } from './quiz.schemas';

// A quiz's questions as learners get them (never an answer) and an attempt's grading (docs/domain.md §11). Pure.

/** A question as shown before an attempt: its prompt and choices or items, shuffled, nothing of what is right. */
export type PresentedQuestion =
  | { id: string; kind: 'single' | 'multiple'; prompt: string; choices: { id: string; text: string }[] }
  | { id: string; kind: 'short'; prompt: string }
  | { id: string; kind: 'ordering'; prompt: string; items: { id: string; text: string }[] };

/** What a learner learns of one question once their attempt is in. */
export interface QuestionResult {
  questionId: string;
  correct: boolean;
  /** The question's explanation. */
  explanation: string | null;
  /**
   * The choices they picked: whether each was right, and its explanation. Null for a multiple choice answered wrong:
   * picking every choice would otherwise read out the whole answer, and with it the next attempt's.
   */
  picked: { id: string; correct: boolean | null; explanation: string | null }[];
}

export interface Grade {
  correct: number;
  total: number;
  /** Percent of questions right, rounded down. */
  score: number;
  passed: boolean;
  results: QuestionResult[];
}

/** FNV-1a of a text: the seed an attempt's shuffle is drawn from (docs/domain.md §11). */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 1; // a non-negative int4
}

/** mulberry32: small, seeded, the same order on every machine. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(list: readonly T[], next: () => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Items to put in order, never shown in their right order (that would be the answer): moved on by one if so. */
function shuffledOutOfOrder<T>(items: readonly T[], next: () => number): T[] {
  const out = shuffled(items, next);
  return out.every((item, i) => item === items[i]) ? [...out.slice(1), out[0]!] : out;
}

function present(question: QuizQuestion, next: () => number): PresentedQuestion {
  const { id, prompt } = question;
  switch (question.kind) {
    case 'single':
    case 'multiple':
      return {
        id,
        kind: question.kind,
        prompt,
        choices: shuffled(question.choices, next).map(({ id, text }) => ({ id, text })),
      };
    case 'short':
      return { id, kind: 'short', prompt };
    case 'ordering':
      return {
        id,
        kind: 'ordering',
        prompt,
        items: shuffledOutOfOrder(question.items, next).map(({ id, text }) => ({ id, text })),
      };
  }
}

/** The questions and their choices in the order this seed draws: what an attempt shows. */
export function presentQuiz(quiz: Quiz, seed: number): PresentedQuestion[] {
  const next = random(seed);
  return shuffled(quiz.questions, next).map((q) => present(q, next));
}

/** An answer as compared: trimmed, runs of spaces as one, any case. */
const normal = (text: string) => text.normalize('NFKC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('en');

/**
 * An answer as a pattern reads it: composed (an accent typed as its own mark is the letter the pattern names), trimmed,
 * runs of spaces as one, as the accepted answers are; the pattern itself ignores case.
 */
const tidy = (text: string) => text.normalize('NFC').trim().replace(/\s+/g, ' ');

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && new Set(a).size === a.length && a.every((x) => b.includes(x));

function gradeOne(question: QuizQuestion, answer: string | string[] | undefined): QuestionResult {
  const explanation = question.explanation ?? null;
  const base = { questionId: question.id, explanation };
  switch (question.kind) {
    case 'single':
    case 'multiple': {
      const ids = answer === undefined ? [] : typeof answer === 'string' ? [answer] : answer;
      const right = question.choices.filter((c) => c.correct).map((c) => c.id);
      const correct = sameSet(ids, right);
      const said = question.kind === 'single' || correct;
      const picked = question.choices
        .filter((c) => ids.includes(c.id))
        .map((c) => ({ id: c.id, correct: said ? c.correct : null, explanation: c.explanation ?? null }));
      return { ...base, correct, picked };
    }
    case 'short': {
      const text = typeof answer === 'string' ? answer.trim() : '';
      const correct =
        text !== '' &&
        (question.accepted.some((a) => normal(a) === normal(text)) ||
          (!!question.pattern && new RegExp(`^(?:${question.pattern.normalize('NFC')})$`, 'iu').test(tidy(text))));
      return { ...base, correct, picked: [] };
    }
    case 'ordering': {
      const order = Array.isArray(answer) ? answer : [];
      const correct = order.length === question.items.length && question.items.every((item, i) => order[i] === item.id);
      return { ...base, correct, picked: [] };
    }
  }
}

/** Answers that name questions or choices the quiz does not have, or give a question the wrong shape. */
export function answerProblem(quiz: Quiz, answers: QuizAnswers): string | null {
  for (const [questionId, answer] of Object.entries(answers)) {
    const question = quiz.questions.find((q) => q.id === questionId);
    if (!question) return `No question ${questionId} in this quiz.`;
    const many = Array.isArray(answer);
    const known = question.kind === 'ordering' ? question.items : question.kind === 'short' ? [] : question.choices;
    const shapeOk =
      question.kind === 'single' || question.kind === 'short' ? !many : question.kind === 'multiple' ? true : many;
    if (!shapeOk) return `The answer to ${questionId} is not of its kind.`;
    if (question.kind !== 'short' && [answer].flat().some((id) => !known.some((k) => k.id === id)))
      return `The answer to ${questionId} names a choice it does not have.`;
  }
  return null;
}

/** An attempt's grade: each question right or wrong, the score and whether it passes the quiz's mark. */
export function gradeQuiz(quiz: Quiz, answers: QuizAnswers): Grade {
  // Own answers only: a question named like an object's own members (`constructor`) is unanswered when left out.
  const results = quiz.questions.map((q) => gradeOne(q, Object.hasOwn(answers, q.id) ? answers[q.id] : undefined));
  const correct = results.filter((r) => r.correct).length;
  const total = quiz.questions.length;
  return {
    correct,
    total,
    score: Math.floor((correct * 100) / total),
    passed: correct * 100 >= quiz.passPercent * total,
    results,
  };
}
