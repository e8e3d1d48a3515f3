import type { ProgressAnswer } from '../schemas';
import type { PresentedQuestion, QuestionResult } from './grading';

// The store's answers about quizzes (docs/domain.md §11), typed once for the API and the storefront.

/** The score that stands for a learner: their best attempt's, or their last one's (docs/domain.md §11). */
export interface KeptResult {
  score: number;
  passed: boolean;
}

/** GET /api/store/lessons/:id/quiz: the learner's next attempt (its questions in its order) and where they stand. */
export interface QuizState {
  lessonId: string;
  passPercent: number;
  maxAttempts: number | null;
  keep: 'best' | 'last';
  attemptsUsed: number;
  /** Null: as many as they like. */
  attemptsLeft: number | null;
  kept: KeptResult | null;
  /** The next attempt's questions, shuffled for it; null when no attempt is left. */
  questions: PresentedQuestion[] | null;
}

/** POST /api/store/lessons/:id/quiz/attempts: the attempt's grade, and only now what was right and why. */
export interface AttemptAnswer {
  score: number;
  passed: boolean;
  results: QuestionResult[];
  attempt: { number: number; attemptsLeft: number | null; kept: KeptResult };
  /** A pass completes the lesson: its progress answer then (the module's and course's, a certificate earned). */
  progress: ProgressAnswer | null;
}
