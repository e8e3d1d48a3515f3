import { z } from 'zod';
import { Slug } from '../schemas';
import { patternProblem } from './safe-pattern';

// A quiz lesson's fields (docs/domain.md §11) as the console writes them, and a learner's attempt as they send it.

/** The longest answer a learner may type into a short-answer question (patterns run on it). */
export const ANSWER_MAX = 200;

const ItemId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be letters, digits, - or _ (at most 64)');
const Text = (max: number) => z.string().trim().min(1, 'is required').max(max);
const Explanation = z.string().trim().max(2000).nullable().optional();

const Choice = z
  .object({ id: ItemId, text: Text(500), correct: z.boolean().default(false), explanation: Explanation })
  .strict();

const common = { id: ItemId, prompt: Text(2000), explanation: Explanation };

const SingleChoice = z
  .object({ ...common, kind: z.literal('single'), choices: z.array(Choice).min(2, 'at least 2 choices').max(12) })
  .strict()
  .refine((q) => q.choices.filter((c) => c.correct).length === 1, {
    message: 'exactly one choice must be correct',
    path: ['choices'],
  });

const MultipleChoice = z
  .object({ ...common, kind: z.literal('multiple'), choices: z.array(Choice).min(2, 'at least 2 choices').max(12) })
  .strict()
  .refine((q) => q.choices.some((c) => c.correct), {
    message: 'at least one choice must be correct',
    path: ['choices'],
  });

const ShortAnswer = z
  .object({
    ...common,
    kind: z.literal('short'),
    /** Answers taken as they are, ignoring case and spaces. */
    accepted: z.array(Text(ANSWER_MAX)).max(20).default([]),
    /** Or a regular expression the whole answer matches (case-insensitive), checked safe here. */
    pattern: z
      .string()
      .trim()
      .nullable()
      .optional()
      .superRefine((pattern, ctx) => {
        const problem = pattern ? patternProblem(pattern) : null;
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
  })
  .strict()
  .refine((q) => q.accepted.length > 0 || !!q.pattern, {
    message: 'give an accepted answer or a pattern',
    path: ['accepted'],
  });

const Ordering = z
  .object({
    ...common,
    kind: z.literal('ordering'),
    /** The items in their correct order (learners get them shuffled). */
    items: z
      .array(z.object({ id: ItemId, text: Text(500) }).strict())
      .min(2, 'at least 2 items')
      .max(12),
  })
  .strict();

const Question = z.discriminatedUnion('kind', [SingleChoice, MultipleChoice, ShortAnswer, Ordering]);

const unique = (ids: string[]) => new Set(ids).size === ids.length;

export const QuizFields = z
  .object({
    /** The score (percent of questions right) that passes. */
    passPercent: z.number().int('must be a whole number').min(0).max(100).default(70),
    /** How many attempts a learner has; null: as many as they like. */
    maxAttempts: z.number().int('must be a whole number').min(1).max(100).nullable().default(null),
    /** Which attempt's score stands: the best one or the last one. */
    keep: z.enum(['best', 'last']).default('best'),
    questions: z.array(Question).min(1, 'at least one question').max(100),
  })
  .strict()
  .superRefine((quiz, ctx) => {
    if (!unique(quiz.questions.map((q) => q.id)))
      ctx.addIssue({ code: 'custom', message: 'question ids must differ', path: ['questions'] });
    quiz.questions.forEach((q, i) => {
      const ids =
        q.kind === 'ordering' ? q.items.map((c) => c.id) : q.kind === 'short' ? [] : q.choices.map((c) => c.id);
      if (!unique(ids)) ctx.addIssue({ code: 'custom', message: 'ids must differ', path: ['questions', i] });
    });
  });
export type Quiz = z.infer<typeof QuizFields>;
export type QuizQuestion = Quiz['questions'][number];

/**
 * A learner's attempt: per question id, a choice id (single), choice ids (multiple), the typed text (short) or the
 * item ids in their order (ordering). A question left out counts as wrong.
 */
export const QuizAttemptBody = z
  .object({
    answers: z.record(ItemId, z.union([z.string().max(ANSWER_MAX), z.array(ItemId).max(12)])),
    /** The course the lesson is taken in (its progress), when it sits in more than one. */
    course: Slug.optional(),
  })
  .strict();
export type QuizAnswers = z.infer<typeof QuizAttemptBody>['answers'];
