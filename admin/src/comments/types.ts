export interface Comment {
  id: string;
  userId: string;
  text: string;
  /** The lesson commented on, and an optional category. */
  context: { resourceId?: string; category?: string; [key: string]: unknown };
  /** Set while the comment is hidden: learners no longer see it; its author does, with the reason. */
  hiddenAt: string | null;
  hiddenById: string | null;
  hiddenReason: string | null;
  /** When its author last edited it. */
  editedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Comments longer than this are cut in lists and dialogs. */
export const excerpt = (text: string, length = 140) => (text.length > length ? `${text.slice(0, length)}…` : text);
