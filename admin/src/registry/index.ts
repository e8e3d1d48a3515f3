import { CATALOG_AND_SALES_RESOURCES } from './catalog-and-sales';
import { CONTENT_RESOURCES } from './content';
import { IDENTITY_RESOURCES } from './identity';
import { TAX_RESOURCES } from './tax';
import type { ConsoleResource } from './types';

export type { ConsoleResource, MenuGroup } from './types';

export const CONSOLE_RESOURCES: readonly ConsoleResource[] = [
  ...CATALOG_AND_SALES_RESOURCES,
  ...TAX_RESOURCES,
  ...CONTENT_RESOURCES,
  ...IDENTITY_RESOURCES,
];

export { canRead, canWrite } from './access';
