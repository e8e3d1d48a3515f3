import type { TranslateFunction as Translate } from 'react-admin';
import {
  CONTENT_STATES,
  LINK_TIERS,
  RESOURCE_TYPES,
  VISIBILITIES,
  type LinkTier,
  type ResourceType,
} from '../../../api/src/shared/content';

// Choice names are catalog keys (console.content.*): react-admin's inputs translate them.
const choices = (ids: readonly string[], group: string) =>
  ids.map((id) => ({ id, name: `console.content.${group}.${id}` }));

export const TYPE_CHOICES = choices(RESOURCE_TYPES, 'type');
export const STATE_CHOICES = choices(CONTENT_STATES, 'state');
export const VISIBILITY_CHOICES = choices(VISIBILITIES, 'visibility');
/** A link's tier as a choice; a tier the API adds fails the typecheck until it has a name. */
const TIER_NAMES: Record<LinkTier, string> = {
  free: 'console.content.tier.freeChoice',
  paid: 'console.content.tier.paid',
};
export const TIER_CHOICES = LINK_TIERS.map((id) => ({ id, name: TIER_NAMES[id] }));

/** "Lesson"; an unknown type as it is. */
export const typeLabel = (translate: Translate, type: string) => translate(`console.content.type.${type}`, { _: type });

/** "lesson", inside a sentence. */
export const typeNoun = (translate: Translate, type: string) =>
  translate(`console.content.typeNoun.${type}`, { _: type });

export const stateLabel = (translate: Translate, state: string | null | undefined) =>
  state ? translate(`console.content.state.${state}`, { _: state }) : translate('console.content.state.none');

/** Types whose body is written in the rich-text editor. */
export const BODY_TYPES: readonly string[] = ['lesson', 'page', 'solution'] satisfies ResourceType[];
export const hasBody = (type: string | undefined) => Boolean(type && BODY_TYPES.includes(type));

/** Types that hold other content, shown with their outline. */
export const CONTAINER_TYPES: readonly string[] = ['course', 'module', 'section', 'lesson'] satisfies ResourceType[];
export const isContainer = (type: string | undefined) => Boolean(type && CONTAINER_TYPES.includes(type));

/** What usually goes inside each type (the API does not insist). */
export const CHILD_TYPE: Record<string, ResourceType> = {
  course: 'module',
  module: 'section',
  section: 'lesson',
  lesson: 'solution',
};

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
