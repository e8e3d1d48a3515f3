import type { Knex } from 'knex';
import type { QuestionResult } from './grading';
import type { QuizAnswers } from './quiz.schemas';

// The SQL behind quiz attempts (attempts.ts holds the rules, results.ts the console's figures).

export interface AttemptRow {
  id: string;
  number: number;
  score: number;
  passed: boolean;
  createdAt: Date;
}

/** A learner's attempts at one quiz, first to last. */
export async function attemptsOf(db: Knex, userId: string, lessonId: string): Promise<AttemptRow[]> {
  return db('quizAttempts')
    .where({ userId, lessonId })
    .orderBy('number')
    .select('id', 'number', 'score', 'passed', 'createdAt');
}

/**
 * Serialises one learner's attempts at one quiz until the transaction ends: the attempt limit is counted after the
 * previous attempt committed, so two submitted at once cannot both take the last one.
 */
export async function lockAttempts(trx: Knex.Transaction, userId: string, lessonId: string): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 33))', [`quiz:${userId}:${lessonId}`]);
}

/** Of these lessons, the quizzes the learner has passed (an attempt of theirs passed): what a pass completed. */
export async function passedQuizIds(db: Knex, userId: string, lessonIds: readonly string[]): Promise<string[]> {
  if (lessonIds.length === 0) return [];
  const rows: { lessonId: string }[] = await db('quizAttempts')
    .where({ userId, passed: true })
    .whereIn('lessonId', lessonIds)
    .distinct('lessonId');
  return rows.map((r) => r.lessonId);
}

export async function insertAttempt(
  trx: Knex.Transaction,
  attempt: {
    lessonId: string;
    userId: string;
    number: number;
    seed: number;
    correct: number;
    total: number;
    score: number;
    passPercent: number;
    passed: boolean;
    answers: QuizAnswers;
    results: QuestionResult[];
  },
): Promise<AttemptRow> {
  const [row] = await trx('quizAttempts')
    .insert({ ...attempt, answers: JSON.stringify(attempt.answers), results: JSON.stringify(attempt.results) })
    .returning(['id', 'number', 'score', 'passed', 'createdAt']);
  return row;
}
