/**
 * The roles a person can hold, and which of them are staff: one list for the API (policies, the CLI, seeds) and the
 * console (its role picker and menu). Plain TypeScript with no dependency: the apps import this file as it is.
 */
export const ROLES = ['admin', 'support', 'finance', 'contributor', 'learner'] as const;
export type Role = (typeof ROLES)[number];

/** Staff roles that may open the console. */
export const STAFF_ROLES = ['admin', 'support', 'finance'] as const satisfies readonly Role[];

/** Whether any of these roles is a staff role. */
export const hasStaffRole = (roles: readonly string[]) =>
  roles.some((role) => (STAFF_ROLES as readonly string[]).includes(role));
