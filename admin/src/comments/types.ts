export interface Comment {
  id: string;
  userId: string;
  text: string;
  /** The lesson commented on, and an optional category. */
  context: { resourceId?: string; category?: string; [key: string]: unknown };
  createdAt: string;
  updatedAt: string;
}
