import { describeConsoleScreens } from '../support/console-screens';

// Every console screen, in four files that run side by side: this one the menu's destinations 3, 7, 11…
describeConsoleScreens(2, 4);
