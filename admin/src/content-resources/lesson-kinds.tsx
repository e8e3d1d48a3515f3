import type { ComponentType } from 'react';
import { SelectInput, useRecordContext } from 'react-admin';
import { useWatch } from 'react-hook-form';
import {
  DEFAULT_LESSON_KIND,
  LESSON_KINDS,
  kindFieldsOf,
  lessonKindOf,
  type LessonKind,
} from '../../../api/src/shared/lesson-kinds';
import { QuizInputs } from '../quizzes/QuizInputs';
import { QuizResults } from '../quizzes/QuizResults';
import { toQuizFields } from '../quizzes/quizFields';
import type { ContentFields, ContentResource } from './types';

/**
 * Each lesson kind's screens in the console (api/src/shared/lesson-kinds.ts): `Inputs`, the fields it keeps, in the
 * create and edit forms; `Show`, them on the lesson's page; `write`, a field's value as the API takes it. None for a
 * kind that keeps no fields of its own. A kind the API adds fails the typecheck until it is here; its name goes in
 * the catalog (console.content.kind).
 */
const SCREENS: Record<
  LessonKind,
  { Inputs?: ComponentType; Show?: ComponentType; write?: Record<string, (value: unknown) => unknown> }
> = {
  text: {},
  quiz: { Inputs: QuizInputs, Show: QuizResults, write: { quiz: toQuizFields } },
};

// The default kind is the picker's empty choice: a lesson saved with it keeps no `kind`, as before kinds.
const KIND_CHOICES = LESSON_KINDS.filter((kind) => kind !== DEFAULT_LESSON_KIND).map((id) => ({
  id,
  name: `console.content.kind.${id}`,
}));

/** The kind picker (once there is a kind to pick), then the chosen kind's inputs. */
export function LessonKindInputs() {
  const { Inputs } = SCREENS[lessonKindOf({ kind: useWatch({ name: 'fields.kind' }) })];
  return (
    <>
      {KIND_CHOICES.length > 0 && (
        <SelectInput
          source="fields.kind"
          choices={KIND_CHOICES}
          emptyText={`console.content.kind.${DEFAULT_LESSON_KIND}`}
          helperText="console.content.help.kind"
        />
      )}
      {Inputs && <Inputs />}
    </>
  );
}

/** The lesson's kind's fields on its page (none when its body is withheld: they go with it). */
export function LessonKindShow() {
  const record = useRecordContext<ContentResource>();
  const { Show } = SCREENS[lessonKindOf(record?.fields)];
  return Show && !record?.bodyWithheld ? <Show /> : null;
}

/** The kind and the fields it keeps, as the API's strict `fields` takes them (the default kind is not written). */
export function lessonKindFields(input: Record<string, unknown>): Partial<ContentFields> {
  const kind = lessonKindOf(input);
  if (kind === DEFAULT_LESSON_KIND) return {};
  const kept = kindFieldsOf(kind).filter((name) => name in input);
  const write = SCREENS[kind].write ?? {};
  return { kind, ...Object.fromEntries(kept.map((name) => [name, (write[name] ?? ((v) => v))(input[name])])) };
}
