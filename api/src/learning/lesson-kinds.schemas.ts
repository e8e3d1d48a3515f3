import { z } from 'zod';
import { quizPart } from './quizzes/quiz-part';
import { QuizFields } from './quizzes/quiz.schemas';
import { LESSON_KINDS, lessonKindOf, type LESSON_KIND_FIELDS, type LessonKind } from '../shared/lesson-kinds';

// Each lesson kind's hooks in the API (docs/domain.md §11), in one place. Type-only for the apps (no Node module).

interface KindHooks<K extends LessonKind> {
  /** The fields the kind keeps (the shared list's names), checked on every console write beside the common ones. */
  fields: { [F in (typeof LESSON_KIND_FIELDS)[K][number]]: z.ZodType };
  /** What the kind adds to an open lesson's page, from its stored fields: only what learners may see of them. */
  part(fields: Record<string, unknown>): object;
}

/** A text lesson is its body (and its video): nothing more. */
export const LESSON_KIND_HOOKS = {
  text: { fields: {}, part: () => ({}) },
  /** A quiz: its questions and choices only, never what is right (that is graded by quizzes/attempts.ts). */
  quiz: { fields: { quiz: QuizFields }, part: quizPart },
} satisfies { [K in LessonKind]: KindHooks<K> };

/** What an open lesson's kind adds to its page: the kind, and that kind's part. */
export type LessonKindContent = {
  [K in LessonKind]: { kind: K } & ReturnType<(typeof LESSON_KIND_HOOKS)[K]['part']>;
}[LessonKind];

export function lessonKindContent(fields: Record<string, unknown> | null | undefined): LessonKindContent {
  const kind = lessonKindOf(fields);
  const { part }: Pick<KindHooks<LessonKind>, 'part'> = LESSON_KIND_HOOKS[kind];
  return { kind, ...part(fields ?? {}) } as LessonKindContent;
}

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type AllKindFields = Intersection<(typeof LESSON_KIND_HOOKS)[LessonKind]['fields']>;

/**
 * The console's write schema's part for lessons: the kind (absent: the default) and every kind's fields, each
 * optional (a lesson keeps those of its kind).
 */
export const LESSON_KIND_WRITE_FIELDS = {
  kind: z.enum(LESSON_KINDS as [LessonKind, ...LessonKind[]]).optional(),
  ...(Object.fromEntries(
    Object.values(LESSON_KIND_HOOKS).flatMap((hooks) =>
      Object.entries(hooks.fields as Record<string, z.ZodType>).map(([name, schema]) => [name, schema.optional()]),
    ),
  ) as { [F in keyof AllKindFields]: AllKindFields[F] extends z.ZodType ? z.ZodOptional<AllKindFields[F]> : never }),
};
