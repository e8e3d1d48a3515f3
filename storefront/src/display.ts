import type { FontSize, Theme } from './api/prefs';

/*
 * The look the learner chose, applied at once as attributes on <html> (styles.css switches its CSS variables on
 * them) and remembered in this browser, so the next visit paints in the right theme before the API answers.
 */

const STORAGE_KEY = 'lp_display';

export interface Display {
  theme: Theme;
  fontSize: FontSize;
}

export function applyDisplay(display: Display): void {
  const root = document.documentElement;
  root.dataset.theme = display.theme;
  root.dataset.reading = display.fontSize;
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(display));
  } catch {
    // Storage may be off (private mode); the attributes still apply for this visit.
  }
}

/** What this browser remembers (defaults when nothing or something unreadable is stored). */
export function rememberedDisplay(): Display {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as Partial<Display>;
    return {
      theme: stored.theme === 'light' || stored.theme === 'dark' ? stored.theme : 'system',
      fontSize: stored.fontSize === 'large' ? 'large' : 'normal',
    };
  } catch {
    return { theme: 'system', fontSize: 'normal' };
  }
}
