/**
 * What content can be (DOMAIN §11): its types, its publishing states and who may see it. One list for the API (the
 * models, the console's write schemas) and for the console (its pickers and filters). No dependencies, so the apps
 * take it as it is.
 */
export const RESOURCE_TYPES = ['course', 'module', 'section', 'lesson', 'solution', 'page'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const CONTENT_STATES = ['draft', 'published', 'archived'] as const;
export type ContentState = (typeof CONTENT_STATES)[number];

export const VISIBILITIES = ['public', 'unlisted', 'private'] as const;
export type Visibility = (typeof VISIBILITIES)[number];
