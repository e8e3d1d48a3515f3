import { AppError } from '../shared/errors';
import type { Role } from '../shared/roles';

/** Support and admins change any content; a contributor (and nothing more) only what they created. */
export const mayEditAnyContent = (roles: readonly Role[]) => roles.includes('admin') || roles.includes('support');

/** Staff read all content (finance too); a contributor (and nothing more) what the two rules below allow. */
export const readsAllContent = (roles: readonly Role[]) => mayEditAnyContent(roles) || roles.includes('finance');

/**
 * Whether this reader sees a piece of content at all (in lists, outlines): a contributor their own and what other
 * authors published, never another author's draft or archived content. The console's content list says the same in
 * SQL (admin/resources/learning.ts).
 */
export function mayReadContent(
  content: { createdById: string | null; state: string | null },
  reader: { id: string; roles: readonly Role[] },
): boolean {
  return readsAllContent(reader.roles) || content.createdById === reader.id || content.state === 'published';
}

/**
 * Whether this reader gets what learners pay for (a lesson's body, its video and poster): staff, and its author;
 * another contributor sees that a published lesson exists, not what it teaches.
 */
export function mayReadWholeContent(
  content: { createdById: string | null },
  reader: { id: string; roles: readonly Role[] },
): boolean {
  return readsAllContent(reader.roles) || content.createdById === reader.id;
}

export const NOT_YOUR_CONTENT = 'Contributors can change only the content they created.';

/**
 * Refuses a change to content (a lesson, its video) that this person may not make: the same 403 as the console's
 * content writes. `actor.id` null is the operator's own tooling (the command line), which may change any.
 */
export function assertMayEditContent(
  content: { createdById: string | null },
  actor: { id: string | null; roles?: readonly Role[] },
): void {
  if (actor.id === null || mayEditAnyContent(actor.roles ?? [])) return;
  if (content.createdById !== actor.id) throw new AppError('forbidden', NOT_YOUR_CONTENT);
}
