import type { Role } from '../authProvider';
import { CATALOG_AND_SALES_RESOURCES } from './catalog-and-sales';
import { CONTENT_RESOURCES } from './content';
import { IDENTITY_RESOURCES } from './identity';
import type { ConsoleResource } from './types';

export type { ConsoleResource, MenuGroup } from './types';

export const CONSOLE_RESOURCES: readonly ConsoleResource[] = [
  ...CATALOG_AND_SALES_RESOURCES,
  ...CONTENT_RESOURCES,
  ...IDENTITY_RESOURCES,
];

export function consoleResource(name: string): ConsoleResource | undefined {
  return CONSOLE_RESOURCES.find((r) => r.name === name);
}

const allowed = (roles: readonly Role[], list: readonly Role[]) =>
  roles.includes('admin') || list.some((r) => roles.includes(r));

export const canRead = (roles: readonly Role[], resource: ConsoleResource) => allowed(roles, resource.read);
export const canWrite = (roles: readonly Role[], resource: ConsoleResource) =>
  allowed(roles, resource.write ?? ['support']);
