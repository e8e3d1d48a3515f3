import { useGetIdentity, usePermissions } from 'react-admin';
import { rolesOf } from '../permissions';
import type { ContentResource } from './types';

/**
 * Whether the signed-in person may change this content: admins and support any, a contributor only what they
 * created (the API refuses the rest; the console does not offer it).
 */
export function useMayEditContent(record: Pick<ContentResource, 'createdById'> | undefined): boolean {
  const { permissions } = usePermissions();
  const { identity } = useGetIdentity();
  const roles = rolesOf(permissions);
  if (roles.includes('admin') || roles.includes('support')) return true;
  return Boolean(record && identity && roles.includes('contributor') && record.createdById === identity.id);
}
