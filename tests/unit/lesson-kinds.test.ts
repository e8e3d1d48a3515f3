import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { messages } from '../../admin/src/i18n';
import {
  LESSON_KIND_HOOKS,
  LESSON_KIND_WRITE_FIELDS,
  lessonKindContent,
} from '../../api/src/learning/lesson-kinds.schemas';
import { DEFAULT_LESSON_KIND, LESSON_KINDS, kindFieldsOf, lessonKindOf } from '../../api/src/shared/lesson-kinds';

// The lesson kinds are listed once (api/src/shared/lesson-kinds.ts); each app's hooks follow that list.
describe('lesson kinds', () => {
  it('reads a lesson without a kind, or with one it does not know, as the default kind', () => {
    expect(DEFAULT_LESSON_KIND).toBe('text');
    expect(lessonKindOf(undefined)).toBe('text');
    expect(lessonKindOf({ title: 'No kind' })).toBe('text');
    expect(lessonKindOf({ kind: 'hologram' })).toBe('text');
    expect(lessonKindOf({ kind: 'toString' })).toBe('text'); // not an inherited name either
    for (const kind of LESSON_KINDS) expect(lessonKindOf({ kind })).toBe(kind);
  });

  it('has the API hooks of every kind, with the fields the shared list names', () => {
    expect(Object.keys(LESSON_KIND_HOOKS).sort()).toEqual([...LESSON_KINDS].sort());
    for (const kind of LESSON_KINDS) {
      expect(Object.keys(LESSON_KIND_HOOKS[kind].fields).sort()).toEqual([...kindFieldsOf(kind)].sort());
      expect(lessonKindContent({ kind })).toMatchObject({ kind });
    }
  });

  it('takes in console writes only the kinds it knows', () => {
    const fields = z.object(LESSON_KIND_WRITE_FIELDS).strict();
    for (const kind of LESSON_KINDS) expect(fields.safeParse({ kind }).success).toBe(true);
    expect(fields.safeParse({}).success).toBe(true);
    expect(fields.safeParse({ kind: 'hologram' }).success).toBe(false);
  });

  it('names every kind in the console', () => {
    const names = (messages as { console: { content: { kind: Record<string, unknown> } } }).console.content.kind;
    for (const kind of LESSON_KINDS) expect(typeof names[kind]).toBe('string');
  });
});
