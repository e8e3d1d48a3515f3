import type { ContentResourceRecord, TreeNode as ContentTreeNode } from '@contract/learning/schemas';
import type { Wire } from '@contract/shared/wire';

export const RESOURCE_TYPES = ['course', 'module', 'section', 'lesson', 'solution', 'page'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const STATES = ['draft', 'published', 'archived'] as const;
export type ContentState = (typeof STATES)[number];

export const VISIBILITIES = ['public', 'unlisted', 'private'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** The writable content of a resource: exactly the keys the API's strict `fields` schema accepts. */
export interface ContentFields {
  title: string;
  slug?: string;
  description?: string | null;
  /** Rich text (HTML), sanitized by the API on every write. */
  body?: string | null;
  state: ContentState;
  visibility: Visibility;
}

/** A course, module, section, lesson … (the `content-resources` resource). */
export type ContentResource = Wire<ContentResourceRecord>;

/** GET /api/admin/content-resources/:id/tree: children ordered by position. */
export type TreeNode = Wire<ContentTreeNode>;
