import { defaultLightTheme, type RaThemeOptions } from 'react-admin';

/**
 * react-admin's light theme with its app bar readable: the default bar is white on #2196f3 (3.1:1), below WCAG's
 * 4.5:1 for its text (the title, the menu and refresh buttons). #1565c0, a shade of the same blue, reads at 5.8:1.
 * Its red likewise: the Delete button of an edit form's toolbar is #d32f2f on the toolbar's grey (#e0e0e0), 3.8:1;
 * #b71c1c reads at 4.9:1 there and 6.6:1 on white (the charts keep their lighter red). And its primary blue: a text
 * button (an edit page's Show) is #1976d2 on the page's #fafafb, 4.4:1; the app bar's #1565c0 reads at 5.5:1.
 */
export const consoleLightTheme: RaThemeOptions = {
  ...defaultLightTheme,
  palette: {
    ...defaultLightTheme.palette,
    primary: { light: '#5e92f3', main: '#1565c0', dark: '#003c8f', contrastText: '#fff' },
    secondary: { light: '#5e92f3', main: '#1565c0', dark: '#003c8f', contrastText: '#fff' },
    error: { light: '#ef5350', main: '#b71c1c', dark: '#7f0000', contrastText: '#fff' },
  },
};
