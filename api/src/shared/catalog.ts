/**
 * The catalog's vocabulary (DOMAIN §2): what kinds of product there are, and the status a product or a price has
 * (archived ones are kept for the purchases that name them). One list for the API (models, schemas) and the console
 * (its pickers and chips). No dependencies, so the apps take it as it is.
 */
export const PRODUCT_TYPES = ['self-paced', 'live', 'cohort', 'membership'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

/** A product's or a price's status. */
export const CATALOG_STATUSES = ['active', 'archived'] as const;
export type CatalogStatus = (typeof CATALOG_STATUSES)[number];
