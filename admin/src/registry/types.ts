import type { ComponentType } from 'react';
import type { Role } from '../authProvider';

/** The sections of the console's menu. */
export type MenuGroup = 'Catalog' | 'Sales' | 'Payments' | 'Tax' | 'Learning' | 'People' | 'System';

/**
 * One console resource: its screens, who may read and write it (a mirror of the API's policies, used only to
 * decide what to show; the API enforces them) and where it sits in the menu. Labels live in i18n/.
 */
export interface ConsoleResource {
  name: string;
  read: readonly Role[];
  write?: readonly Role[];
  list?: ComponentType;
  show?: ComponentType;
  edit?: ComponentType;
  create?: ComponentType;
  icon?: ComponentType;
  recordRepresentation?: string | ((record: never) => string);
  /** No menu entry (reached from other screens), e.g. sessions inside a user. */
  hidden?: boolean;
  group: MenuGroup;
}
