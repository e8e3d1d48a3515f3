import type * as Quizzes from '@contract/learning/quizzes/answers';
import type { Wire } from '@contract/shared/wire';
import { getJson, postJson } from './client';

/** GET /api/store/lessons/:id/quiz: the learner's next attempt at a quiz lesson, and where they stand. */
export type QuizState = Wire<Quizzes.QuizState>;
/** POST /api/store/lessons/:id/quiz/attempts: the attempt graded, explained now. */
export type AttemptAnswer = Wire<Quizzes.AttemptAnswer>;
export type PresentedQuestion = QuizState['questions'] extends (infer Q)[] | null ? Q : never;
/** Per question id: a choice id, choice ids, the typed text, or item ids in order. */
export type QuizAnswers = Record<string, string | string[]>;

const enc = encodeURIComponent;

export function getQuiz(lessonId: string): Promise<QuizState> {
  return getJson(`/api/store/lessons/${enc(lessonId)}/quiz`);
}

export function submitQuiz(lessonId: string, answers: QuizAnswers, course: string): Promise<AttemptAnswer> {
  return postJson(`/api/store/lessons/${enc(lessonId)}/quiz/attempts`, { answers, course });
}
