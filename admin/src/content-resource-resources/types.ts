import type { ContentLinkRecord } from '@contract/learning/schemas';
import type { ContentLinkUpdate as ContentLinkUpdateBody } from '@contract/admin/schemas/learning';
import type { Wire } from '@contract/shared/wire';
import type { z } from 'zod';

/** A place of content inside other content: the outline's edges, ordered by position. */
export type ContentLink = Wire<ContentLinkRecord>;

/** PUT /api/admin/content-resource-resources/:id accepts exactly these. */
export type ContentLinkUpdate = z.input<typeof ContentLinkUpdateBody>;
