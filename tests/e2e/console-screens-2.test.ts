import { describeConsoleScreens } from '../support/console-screens';

// Every console screen, in four files that run side by side: this one the menu's destinations 2, 6, 10…
describeConsoleScreens(1, 4);
