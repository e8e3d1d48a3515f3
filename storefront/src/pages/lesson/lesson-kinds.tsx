import type { ReactNode } from 'react';
import type { LessonKind } from '../../../../api/src/shared/lesson-kinds';
import type { LessonView } from '../../api/learning';
import { Quiz, type QuizContext } from './quiz/Quiz';

type Content = NonNullable<LessonView['content']>;

/** What a kind's part may need of its page: the lesson, its course, and what to do when the part completes it. */
export type PartContext = QuizContext;

/**
 * Each lesson kind's part of the lesson page, under its body (api/src/shared/lesson-kinds.ts): what the API's answer
 * carries for that kind. A kind the API adds fails the typecheck until it is here.
 */
const PARTS: { [K in LessonKind]: (content: Extract<Content, { kind: K }>, context: PartContext) => ReactNode } = {
  // A text lesson is its body (and its video): nothing more.
  text: () => null,
  // A quiz: its questions to answer (storefront/src/pages/lesson/quiz/).
  quiz: (content, context) => <Quiz quiz={content.quiz} context={context} />,
};

export function LessonKindPart({ content, context }: { content: Content; context: PartContext }) {
  const part = PARTS[content.kind] as (content: Content, context: PartContext) => ReactNode;
  return <>{part(content, context)}</>;
}
