import type { Db } from '../../db/connection';
import type { User } from '../../identity/models';
import { AppError } from '../../shared/errors';
import { lessonKindOf } from '../../shared/lesson-kinds';
import type { Viewer } from '../access';
import type { LearningService } from '../learning';
import * as queries from '../queries';
import type { AttemptAnswer, KeptResult, QuizState } from './answers';
import { answerProblem, gradeQuiz, presentQuiz, seedOf } from './grading';
import * as attempts from './queries';
import { QuizFields, type Quiz, type QuizAnswers } from './quiz.schemas';

export function keptResult(rows: readonly { score: number; passed: boolean }[], keep: Quiz['keep']): KeptResult | null {
  if (rows.length === 0) return null;
  if (keep === 'last') {
    const last = rows[rows.length - 1]!;
    return { score: last.score, passed: last.passed };
  }
  return { score: Math.max(...rows.map((r) => r.score)), passed: rows.some((r) => r.passed) };
}

/** Each attempt's own order: drawn from the quiz, the learner and the attempt's number, kept on the attempt. */
const attemptSeed = (lessonId: string, userId: string, number: number) => seedOf(`${lessonId}:${userId}:${number}`);

const left = (quiz: Quiz, used: number) => (quiz.maxAttempts === null ? null : Math.max(0, quiz.maxAttempts - used));

/** Taking a quiz lesson: its questions for the next attempt, and grading an attempt under the attempt limit. */
export function quizAttempts({
  db,
  learning,
}: {
  db: Db;
  learning: Pick<LearningService, 'assertOpen' | 'setCompleted'>;
}) {
  /** The quiz of a lesson the learner may open; not-found for a lesson that is not a quiz. */
  async function openQuiz(lessonId: string, viewer: Viewer, course?: string): Promise<Quiz> {
    await learning.assertOpen(lessonId, viewer, course);
    const fields = (await queries.resourceById(db, lessonId))?.fields;
    const parsed = lessonKindOf(fields) === 'quiz' ? QuizFields.safeParse(fields?.quiz) : null;
    if (!parsed?.success) throw new AppError('not-found', 'This lesson has no quiz.');
    return parsed.data;
  }

  return {
    async state(user: Pick<User, 'id'>, lessonId: string, country: string): Promise<QuizState> {
      const quiz = await openQuiz(lessonId, { user, country });
      const rows = await attempts.attemptsOf(db, user.id, lessonId);
      const attemptsLeft = left(quiz, rows.length);
      return {
        lessonId,
        passPercent: quiz.passPercent,
        maxAttempts: quiz.maxAttempts,
        keep: quiz.keep,
        attemptsUsed: rows.length,
        attemptsLeft,
        kept: keptResult(rows, quiz.keep),
        questions: attemptsLeft === 0 ? null : presentQuiz(quiz, attemptSeed(lessonId, user.id, rows.length + 1)),
      };
    },

    /**
     * Grades an attempt and keeps it, one row per attempt. The attempts so far are counted under the learner's lock
     * on this quiz, so the limit holds however many are sent at once (quiz-attempts-used-up). A pass completes the
     * lesson through learning's own path (its certificate with it) once the attempt is kept.
     */
    async submit(
      user: Pick<User, 'id'>,
      lessonId: string,
      answers: QuizAnswers,
      country: string,
      course?: string,
    ): Promise<AttemptAnswer> {
      const quiz = await openQuiz(lessonId, { user, country }, course);
      const problem = answerProblem(quiz, answers);
      if (problem) throw new AppError('quiz-answer-invalid', problem);
      const grade = gradeQuiz(quiz, answers);
      const { row, rows } = await db.transaction(async (trx) => {
        await attempts.lockAttempts(trx, user.id, lessonId);
        const before = await attempts.attemptsOf(trx, user.id, lessonId);
        if (left(quiz, before.length) === 0)
          throw new AppError('quiz-attempts-used-up', 'You have used every attempt at this quiz.');
        const number = before.length + 1;
        const row = await attempts.insertAttempt(trx, {
          lessonId,
          userId: user.id,
          number,
          seed: attemptSeed(lessonId, user.id, number),
          correct: grade.correct,
          total: grade.total,
          score: grade.score,
          passPercent: quiz.passPercent,
          passed: grade.passed,
          answers,
          results: grade.results,
        });
        return { row, rows: [...before, row] };
      });
      const progress = grade.passed ? await learning.setCompleted(user, lessonId, true, country, course) : null;
      return {
        score: grade.score,
        passed: grade.passed,
        results: grade.results,
        attempt: { number: row.number, attemptsLeft: left(quiz, rows.length), kept: keptResult(rows, quiz.keep)! },
        progress,
      };
    },
  };
}

export type QuizAttempts = ReturnType<typeof quizAttempts>;
