import type { ContentResourceRecord, TreeNode as ContentTreeNode } from '@contract/learning/schemas';
import type { ContentResourceUpdate } from '@contract/admin/schemas/learning';
import type { Wire } from '@contract/shared/wire';
import type { z } from 'zod';

export type { ContentState, ResourceType, Visibility } from '@contract/shared/content';

/** The writable content of a resource: exactly what the API's strict `fields` schema accepts. */
export type ContentFields = NonNullable<z.input<typeof ContentResourceUpdate>['fields']>;

/** A course, module, section, lesson … (the `content-resources` resource). */
export type ContentResource = Wire<ContentResourceRecord>;

/** GET /api/admin/content-resources/:id/tree: children ordered by position. */
export type TreeNode = Wire<ContentTreeNode>;
