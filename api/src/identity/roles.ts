export const ROLES = ['admin', 'support', 'finance', 'contributor', 'learner'] as const;
export type Role = (typeof ROLES)[number];

/** Staff roles that may open the console. */
export const STAFF_ROLES = ['admin', 'support', 'finance'] as const satisfies readonly Role[];

/** Whether any of these roles is a staff role. */
export const hasStaffRole = (roles: readonly string[]) =>
  roles.some((role) => (STAFF_ROLES as readonly string[]).includes(role));
