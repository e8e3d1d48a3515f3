import { useGetIdentity, usePermissions } from 'react-admin';
import { rolesOf } from '../permissions';
import type { ContentResource } from './types';

/**
 * Whether the signed-in person may change this content: admins and support any, a contributor only what they
 * created (the API refuses the rest; the console does not offer it). Until who they are is known the answer is yes,
 * so an author's form never blinks away and back while the identity loads; the API has the last word either way.
 */
export function useMayEditContent(record: Pick<ContentResource, 'createdById'> | undefined): boolean {
  const { permissions, isPending: permissionsPending } = usePermissions();
  const { identity, isPending: identityPending } = useGetIdentity();
  if (permissionsPending || identityPending || !record) return true;
  const roles = rolesOf(permissions);
  if (roles.includes('admin') || roles.includes('support')) return true;
  return roles.includes('contributor') && record.createdById === identity?.id;
}
