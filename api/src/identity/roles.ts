export const ROLES = ['admin', 'support', 'finance', 'contributor', 'learner'] as const;
export type Role = (typeof ROLES)[number];

/** Staff roles that may open the console. */
export const STAFF_ROLES = ['admin', 'support', 'finance'] as const satisfies readonly Role[];
