/**
 * What content can be (docs/domain.md §11): its types, its publishing states, who may see it and the tier of its place
 * in a course. One list for the API (the models, the console's write schemas) and for the console (its pickers and
 * filters). No dependencies, so the apps take it as it is.
 */
export const RESOURCE_TYPES = ['course', 'module', 'section', 'lesson', 'solution', 'page'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const CONTENT_STATES = ['draft', 'published', 'archived'] as const;
export type ContentState = (typeof CONTENT_STATES)[number];

export const VISIBILITIES = ['public', 'unlisted', 'private'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** A link's tier (its metadata): a lesson linked as free is open to everyone, not only to buyers. */
export const LINK_TIERS = ['free', 'paid'] as const;
export type LinkTier = (typeof LINK_TIERS)[number];
