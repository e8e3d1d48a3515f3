import { describeConsoleScreens } from '../support/console-screens';

// Every console screen, in four files that run side by side: this one the menu's destinations 1, 5, 9…
describeConsoleScreens(0, 4);
