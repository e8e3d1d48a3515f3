export { ConsoleLayout } from './ConsoleLayout';
export { consoleLightTheme } from './theme';
