/**
 * An id as PostgreSQL writes a uuid (hex in 8-4-4-4-12 groups, either case), for code that checks one outside a
 * request schema: list filters, slug-or-id lookups, the CLI. Request schemas use zod's `z.uuid()` instead.
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
