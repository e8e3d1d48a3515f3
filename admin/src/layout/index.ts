export { ConsoleLayout } from './ConsoleLayout';
export { ConsoleMenu, MENU_GROUPS } from './ConsoleMenu';
