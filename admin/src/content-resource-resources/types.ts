import type { ContentLinkRecord } from '@contract/learning/schemas';
import type { Wire } from '@contract/shared/wire';

/** A place of content inside other content: the outline's edges, ordered by position. */
export type ContentLink = Wire<ContentLinkRecord>;

/** PUT /api/admin/content-resource-resources/:id accepts exactly these. */
export interface ContentLinkUpdate {
  position: number;
  metadata: { tier?: 'free' | 'paid' };
}
