export { ConsoleLayout } from './ConsoleLayout';
