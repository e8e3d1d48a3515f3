import type { ContentState, ResourceType, Visibility } from './types';

const TYPE_LABELS: Record<ResourceType, string> = {
  course: 'Course',
  module: 'Module',
  section: 'Section',
  lesson: 'Lesson',
  solution: 'Solution',
  page: 'Page',
};

const STATE_LABELS: Record<ContentState, string> = { draft: 'Draft', published: 'Published', archived: 'Archived' };

const VISIBILITY_LABELS: Record<Visibility, string> = { public: 'Public', unlisted: 'Unlisted', private: 'Private' };

const choices = <K extends string>(labels: Record<K, string>) =>
  (Object.keys(labels) as K[]).map((id) => ({ id, name: labels[id] }));

export const TYPE_CHOICES = choices(TYPE_LABELS);
export const STATE_CHOICES = choices(STATE_LABELS);
export const VISIBILITY_CHOICES = choices(VISIBILITY_LABELS);
export const TIER_CHOICES = [
  { id: 'free', name: 'Free (open to everyone)' },
  { id: 'paid', name: 'Paid' },
];

export function typeLabel(type: string): string {
  return (TYPE_LABELS as Record<string, string>)[type] ?? type;
}

export function stateLabel(state: string | null | undefined): string {
  return state ? ((STATE_LABELS as Record<string, string>)[state] ?? state) : 'No state';
}

/** Types whose body is written in the rich-text editor. */
export const BODY_TYPES: readonly string[] = ['lesson', 'page', 'solution'];
export const hasBody = (type: string | undefined) => Boolean(type && BODY_TYPES.includes(type));

/** Types that hold other content, shown with their outline. */
export const CONTAINER_TYPES: readonly string[] = ['course', 'module', 'section', 'lesson'];
export const isContainer = (type: string | undefined) => Boolean(type && CONTAINER_TYPES.includes(type));

/** What usually goes inside each type (the API does not insist). */
export const CHILD_TYPE: Record<string, ResourceType> = {
  course: 'module',
  module: 'section',
  section: 'lesson',
  lesson: 'solution',
};

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
