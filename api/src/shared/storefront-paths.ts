/**
 * Storefront pages the API and the console send people to (storefront/src/App.tsx's routes must show each; a unit
 * test checks every one against them).
 */

/** The learner's own courses and purchases, where a view-as begins. */
export const MY_LEARNING_PATH = '/learning';
