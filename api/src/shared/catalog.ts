/**
 * The catalog's vocabulary (docs/domain.md §2): what kinds of product there are, and the status a product or a price
 * has (archived ones are kept for the purchases that name them). One list for the API (models, schemas) and the console
 * (its pickers and chips). No dependencies, so the apps take it as it is.
 */
export const PRODUCT_TYPES = ['self-paced', 'live', 'cohort', 'membership'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

/** A price's status (and the statuses a product shares with it). */
export const CATALOG_STATUSES = ['active', 'archived'] as const;
export type CatalogStatus = (typeof CATALOG_STATUSES)[number];

/**
 * A product's status: a `draft` is being prepared in the console (not on sale, not in the catalog or the sitemap)
 * until staff publish it as `active`; new products made in the console start as drafts.
 */
export const PRODUCT_STATUSES = ['draft', ...CATALOG_STATUSES] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];
