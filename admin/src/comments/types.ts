import type { CommentRecord } from '@contract/learning/schemas';
import type { Wire } from '@contract/shared/wire';

/** A comment as the console sees it (api/src/learning/schemas.ts). */
export type Comment = Wire<CommentRecord>;

/** Comments longer than this are cut in lists and dialogs. */
export const excerpt = (text: string, length = 140) => (text.length > length ? `${text.slice(0, length)}…` : text);
