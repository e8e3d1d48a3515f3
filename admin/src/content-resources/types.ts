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

export interface ContentResource {
  id: string;
  type: ResourceType;
  createdById: string | null;
  fields: Partial<ContentFields>;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

/** GET /api/admin/content-resources/:id/tree: children ordered by position. */
export interface TreeNode {
  id: string;
  type: ResourceType | string;
  title: string;
  state: string | null;
  /** The link to the parent (absent on the root). */
  link?: { id: string; position: number; tier: string | null };
  children: TreeNode[];
}
