import type { Db } from '../../db/connection';
import { csvHead, csvLine } from '../../http/csv';
import { AppError } from '../../shared/errors';
import { lessonKindOf } from '../../shared/lesson-kinds';
import * as queries from '../queries';
import { QuizFields } from './quiz.schemas';

/** One question's figures: how many attempts answered it and how many got it wrong. */
export interface QuestionFigures {
  questionId: string;
  position: number;
  kind: string;
  prompt: string;
  attempts: number;
  missed: number;
  /** Percent of attempts that got it wrong (0 before any). */
  missRate: number;
}

/** GET /api/admin/quizzes/:lessonId/results: a quiz's attempts in figures, its questions most missed first. */
export interface QuizResults {
  lessonId: string;
  title: string;
  attempts: number;
  learners: number;
  /** Learners with a passing attempt. */
  passedLearners: number;
  averageScore: number | null;
  questions: QuestionFigures[];
}

const rate = (missed: number, attempts: number) => (attempts ? Math.round((missed * 1000) / attempts) / 10 : 0);

/** The console's view of how a quiz goes (docs/domain.md §11): by quiz, and which questions people miss. */
export function quizResults({ db }: { db: Db }) {
  async function results(lessonId: string): Promise<QuizResults> {
    const fields = (await queries.resourceById(db, lessonId))?.fields;
    const parsed = lessonKindOf(fields) === 'quiz' ? QuizFields.safeParse(fields?.quiz) : null;
    if (!parsed?.success) throw new AppError('not-found', 'No such quiz.');
    const [totals] = await db('quizAttempts')
      .where({ lessonId })
      .select(
        db.raw('count(*)::int AS attempts'),
        db.raw('count(DISTINCT user_id)::int AS learners'),
        db.raw('count(DISTINCT user_id) FILTER (WHERE passed)::int AS passed_learners'),
        db.raw('round(avg(score))::int AS average_score'),
      );
    // Each attempt keeps its results per question: counted where they are, by the question's id.
    const { rows } = await db.raw(
      `SELECT r->>'questionId' AS question_id, count(*)::int AS attempts,
              count(*) FILTER (WHERE NOT (r->>'correct')::boolean)::int AS missed
         FROM quiz_attempts a CROSS JOIN LATERAL jsonb_array_elements(a.results) r
        WHERE a.lesson_id = ? GROUP BY 1`,
      [lessonId],
    );
    const byId = new Map<string, { attempts: number; missed: number }>(
      rows.map((r: { question_id: string; attempts: number; missed: number }) => [r.question_id, r]),
    );
    const questions = parsed.data.questions
      .map((q, i) => {
        const counted = byId.get(q.id) ?? { attempts: 0, missed: 0 };
        return {
          questionId: q.id,
          position: i + 1,
          kind: q.kind,
          prompt: q.prompt,
          attempts: counted.attempts,
          missed: counted.missed,
          missRate: rate(counted.missed, counted.attempts),
        };
      })
      .sort((a, b) => b.missRate - a.missRate || a.position - b.position);
    return {
      lessonId,
      title: typeof fields?.title === 'string' ? fields.title : '',
      attempts: totals.attempts,
      learners: totals.learners,
      passedLearners: totals.passedLearners,
      averageScore: totals.averageScore,
      questions,
    };
  }

  return {
    results,

    /** The same figures as CSV: one row per question, most missed first. */
    async resultsCsv(lessonId: string): Promise<{ filename: string; body: string }> {
      const quiz = await results(lessonId);
      const head = csvHead(['Question', 'Kind', 'Prompt', 'Attempts', 'Missed', 'Miss rate (%)', 'Question id']);
      const lines = quiz.questions.map((q) =>
        csvLine(
          [
            String(q.position),
            q.kind,
            q.prompt,
            String(q.attempts),
            String(q.missed),
            String(q.missRate),
            q.questionId,
          ],
          [true, false, false, true, true, true, false],
        ),
      );
      return { filename: `quiz-results-${lessonId}.csv`, body: head + lines.join('') };
    },
  };
}

export type QuizResultsService = ReturnType<typeof quizResults>;
