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

/** Every role that opens the console: staff, and contributors (for their own content). */
export const CONSOLE_ROLES = [...STAFF_ROLES, 'contributor'] as const satisfies readonly Role[];

/**
 * Whether an account is staff to the rules about acting on people (blocking, signing out, changing the email of,
 * deleting, viewing as): anyone who can open the console, since acting as them acts in the console.
 */
export const isStaffAccount = (roles: readonly string[]) =>
  roles.some((role) => (CONSOLE_ROLES as readonly string[]).includes(role));
