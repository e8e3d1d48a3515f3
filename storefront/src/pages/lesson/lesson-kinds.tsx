import type { ReactNode } from 'react';
import type { LessonKind } from '../../../../api/src/shared/lesson-kinds';
import type { LessonView } from '../../api/learning';

type Content = NonNullable<LessonView['content']>;

/**
 * Each lesson kind's part of the lesson page, under its body (api/src/shared/lesson-kinds.ts): what the API's answer
 * carries for that kind. A kind the API adds fails the typecheck until it is here.
 */
const PARTS: { [K in LessonKind]: (content: Extract<Content, { kind: K }>) => ReactNode } = {
  // A text lesson is its body (and its video): nothing more.
  text: () => null,
};

export function LessonKindPart({ content }: { content: Content }) {
  const part = PARTS[content.kind] as (content: Content) => ReactNode;
  return <>{part(content)}</>;
}
