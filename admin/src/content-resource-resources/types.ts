/** A place of content inside other content: the outline's edges, ordered by position. */
export interface ContentLink {
  id: string;
  /** The parent. */
  resourceOfId: string;
  /** The child. */
  resourceId: string;
  position: number;
  metadata: { tier?: 'free' | 'paid' };
  createdAt: string;
  updatedAt: string;
}

/** PUT /api/admin/content-resource-resources/:id accepts exactly these. */
export interface ContentLinkUpdate {
  position: number;
  metadata: { tier?: 'free' | 'paid' };
}
