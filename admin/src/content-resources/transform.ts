import type { RaRecord } from 'react-admin';
import { lessonKindFields } from './lesson-kinds';
import type { ContentFields, ContentState, ResourceType, Visibility } from './types';

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * The `fields` object the API accepts (a strict schema that replaces the stored one): title, slug (omitted when
 * empty: it is optional, not nullable), description (null when empty), body (null when emptied), state, visibility,
 * and a lesson's estimated minutes, kind and the fields its kind keeps.
 */
export function toContentFields(data: RaRecord): ContentFields {
  const input = (data.fields ?? {}) as Record<string, unknown>;
  const fields: ContentFields = {
    title: text(input.title),
    state: (text(input.state) || 'draft') as ContentState,
    visibility: (text(input.visibility) || 'public') as Visibility,
    description: text(input.description) || null,
  };
  const slug = text(input.slug);
  if (slug) fields.slug = slug;
  if (typeof input.body === 'string') fields.body = input.body.trim() ? input.body : null;
  else if (input.body === null) fields.body = null;
  // A lesson's estimated minutes: a number, or null once the field is emptied (absent: never set).
  if (typeof input.durationMinutes === 'number') fields.durationMinutes = input.durationMinutes;
  else if (input.durationMinutes === null || input.durationMinutes === '') fields.durationMinutes = null;
  // A course's setting: its certificate waits for its quizzes (absent: never set).
  if (typeof input.quizzesRequired === 'boolean') fields.quizzesRequired = input.quizzesRequired;
  return { ...fields, ...lessonKindFields(input) };
}

/** PUT /api/admin/content-resources/:id: only `fields` is writable. */
export function toContentUpdate(data: RaRecord): { fields: ContentFields } {
  return { fields: toContentFields(data) };
}

/** POST /api/admin/content-resources: the type, then the fields. */
export function toContentCreate(data: RaRecord): { type: ResourceType; fields: ContentFields } {
  return { type: data.type as ResourceType, fields: toContentFields(data) };
}
