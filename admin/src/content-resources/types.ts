import type { ContentResourceRecord, TreeNode as ContentTreeNode } from '@contract/learning/schemas';
import type { ContentResourceUpdate } from '@contract/admin/schemas/learning';
import type { Wire } from '@contract/shared/wire';
import type { z } from 'zod';

export const RESOURCE_TYPES = ['course', 'module', 'section', 'lesson', 'solution', 'page'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const STATES = ['draft', 'published', 'archived'] as const;
export type ContentState = (typeof STATES)[number];

export const VISIBILITIES = ['public', 'unlisted', 'private'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** The writable content of a resource: exactly what the API's strict `fields` schema accepts. */
export type ContentFields = NonNullable<z.input<typeof ContentResourceUpdate>['fields']>;

/** A course, module, section, lesson … (the `content-resources` resource). */
export type ContentResource = Wire<ContentResourceRecord>;

/** GET /api/admin/content-resources/:id/tree: children ordered by position. */
export type TreeNode = Wire<ContentTreeNode>;
