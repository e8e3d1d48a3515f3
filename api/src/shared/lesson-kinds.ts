/**
 * A lesson's kinds (docs/domain.md §11): what its page is built around besides the body and the video every lesson
 * may have. Kept in the lesson's `fields.kind`; a lesson without one is a text lesson. Each kind names the fields it
 * keeps beside the common ones (`fields.<name>`). One list for the API (the console's write schema, the lesson
 * answer), the console (its kind picker and inputs) and the storefront (the part each kind adds to the lesson page).
 * No dependencies, so the apps take it as it is.
 *
 * A new kind: its entry here, then its hooks in one place per app (the typecheck names each one until it has them):
 * api/src/learning/lesson-kinds.schemas.ts, admin/src/content-resources/lesson-kinds.tsx,
 * storefront/src/pages/lesson/lesson-kinds.tsx, and its label in the console's catalog.
 */
export const LESSON_KIND_FIELDS = {
  text: [],
  /** Questions to answer on the lesson page (docs/domain.md §11): `quiz` holds them, their answers and the rules. */
  quiz: ['quiz'],
} as const satisfies Record<string, readonly string[]>;

export type LessonKind = keyof typeof LESSON_KIND_FIELDS;

export const LESSON_KINDS = Object.keys(LESSON_KIND_FIELDS) as LessonKind[];

/** The kind of a lesson whose fields name none (every lesson written before kinds). */
export const DEFAULT_LESSON_KIND = 'text' satisfies LessonKind;

/** A lesson's kind from its stored fields: the default when none, or one this version does not know. */
export function lessonKindOf(fields: Readonly<Record<string, unknown>> | null | undefined): LessonKind {
  const kind = fields?.kind;
  return typeof kind === 'string' && Object.hasOwn(LESSON_KIND_FIELDS, kind)
    ? (kind as LessonKind)
    : DEFAULT_LESSON_KIND;
}

/** The fields a lesson's kind keeps (withheld with the body from those who may not read it). */
export const kindFieldsOf = (kind: LessonKind): readonly string[] => LESSON_KIND_FIELDS[kind];
