import { describeConsoleScreens } from '../support/console-screens';

// Every console screen, in four files that run side by side: this one the menu's destinations 4, 8, 12…
describeConsoleScreens(3, 4);
