import { AppError } from '../http/errors';
import type { Role } from '../identity/roles';

/** Support and admins change any content; a contributor (and nothing more) only what they created. */
export const mayEditAnyContent = (roles: readonly Role[]) => roles.includes('admin') || roles.includes('support');

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
