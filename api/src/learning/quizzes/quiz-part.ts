import { presentQuiz, seedOf, type PresentedQuestion } from './grading';
import { QuizFields } from './quiz.schemas';

/** What a quiz lesson's page carries (docs/domain.md §11): its rules and its questions, nothing of their answers. */
export interface QuizPart {
  quiz: {
    passPercent: number;
    maxAttempts: number | null;
    keep: 'best' | 'last';
    /** In an order of the quiz's own; each attempt draws its own (GET /api/store/lessons/:id/quiz). */
    questions: PresentedQuestion[];
  };
}

export function quizPart(fields: Record<string, unknown>): QuizPart {
  const parsed = QuizFields.safeParse(fields.quiz);
  if (!parsed.success) return { quiz: { passPercent: 100, maxAttempts: null, keep: 'best', questions: [] } };
  const { passPercent, maxAttempts, keep, questions } = parsed.data;
  const seed = seedOf(questions.map((q) => q.id).join(' '));
  return { quiz: { passPercent, maxAttempts, keep, questions: presentQuiz(parsed.data, seed) } };
}
