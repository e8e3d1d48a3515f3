import { ROLES, type Role } from '../authProvider';

const LABELS: Record<Role, string> = {
  admin: 'Admin',
  support: 'Support',
  finance: 'Finance',
  contributor: 'Contributor',
  learner: 'Learner',
};

export const ROLE_CHOICES = ROLES.map((id) => ({ id, name: LABELS[id] }));

export function roleLabel(role: string): string {
  return (LABELS as Record<string, string>)[role] ?? role;
}
