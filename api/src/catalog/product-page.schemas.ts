import { z } from 'zod';

// The sales page's request schema; its answer (StoreProductPage) is in ./schemas.ts with the catalog's other answers.

/** GET /api/store/products/:slugOrId: a product's address, its slug or its id. */
export const ProductPageParam = z.object({ slugOrId: z.string().trim().min(1).max(200) });
