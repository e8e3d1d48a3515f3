/**
 * The finance vocabulary both sides list (docs/domain.md §9): who a revenue split pays, the CSV exports and the periods
 * figures are summed by. One statement for the API (models, schemas, routes) and the console (its pickers and export
 * buttons). No dependencies, so the apps take it as it is.
 */

/** Who a split pays: the platform (no user), the product's owner or a contributor. */
export const RECIPIENT_TYPES = ['platform', 'owner', 'contributor'] as const;
export type RecipientType = (typeof RECIPIENT_TYPES)[number];

/** The CSV exports, each at GET /api/admin/exports/<kind>.csv. */
export const EXPORT_KINDS = ['charges', 'split-lines', 'recipients'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** What figures are summed by (the `period` of a finance query). */
export const SUM_PERIODS = ['day', 'week', 'month'] as const;

/** Who reads the finance figures (the Finance page, net revenue, fees, splits): finance, and admins as everywhere. */
export const seesFinance = (roles: readonly string[]) => roles.includes('admin') || roles.includes('finance');

/** The money figures' currency in a period without sales, and first among currencies tied. */
export const DEFAULT_CURRENCY = 'usd';

/**
 * Which currency a period's money is shown in until one is chosen (the dashboard and the Finance page alike): the one
 * with the most sales; of those tied (or when nothing sold), the default currency, then the first alphabetically.
 */
export function mostSold(sales: ReadonlyMap<string, number>): string {
  const rank = (c: string) => [-(sales.get(c) ?? 0), c === DEFAULT_CURRENCY ? 0 : 1] as const;
  return [...sales.keys(), DEFAULT_CURRENCY].sort((a, b) => {
    const [ra, rb] = [rank(a), rank(b)];
    return ra[0] - rb[0] || ra[1] - rb[1] || a.localeCompare(b);
  })[0]!;
}
