import type { TranslateFunction as Translate } from 'react-admin';
import { RESOURCE_TYPES, STATES, VISIBILITIES, type ResourceType } from './types';

// Choice names are catalog keys (console.content.*): react-admin's inputs translate them.
const choices = (ids: readonly string[], group: string) =>
  ids.map((id) => ({ id, name: `console.content.${group}.${id}` }));

export const TYPE_CHOICES = choices(RESOURCE_TYPES, 'type');
export const STATE_CHOICES = choices(STATES, 'state');
export const VISIBILITY_CHOICES = choices(VISIBILITIES, 'visibility');
export const TIER_CHOICES = [
  { id: 'free', name: 'console.content.tier.freeChoice' },
  { id: 'paid', name: 'console.content.tier.paid' },
];

/** "Lesson"; an unknown type as it is. */
export const typeLabel = (translate: Translate, type: string) => translate(`console.content.type.${type}`, { _: type });

/** "lesson", inside a sentence. */
export const typeNoun = (translate: Translate, type: string) =>
  translate(`console.content.typeNoun.${type}`, { _: type });

export const stateLabel = (translate: Translate, state: string | null | undefined) =>
  state ? translate(`console.content.state.${state}`, { _: state }) : translate('console.content.state.none');

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
