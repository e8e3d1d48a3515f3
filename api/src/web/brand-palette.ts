/*
 * The storefront's colours from the school's accent. The accent is the admin's choice and may be any colour: where
 * it carries text (links, buttons with white labels, the header) it is darkened (or, in the dark theme, lightened)
 * until it reaches WCAG AA's 4.5:1 (https://www.w3.org/TR/WCAG22/#contrast-minimum) against what it sits on; the
 * accent as chosen only decorates (the header's edge, the theme colour).
 */

type Rgb = [number, number, number];

const rgbOf = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
const hexOf = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** WCAG's relative luminance of an sRGB colour. */
function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG's contrast ratio of two colours, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `a` moved `amount` (0–1) of the way to `b`. */
export function mix(a: string, b: string, amount: number): string {
  const [from, to] = [rgbOf(a), rgbOf(b)];
  return hexOf(from.map((c, i) => c + (to[i]! - c) * amount) as Rgb);
}

/** The colour nearest `colour` towards `toward` (black or white) that reaches `ratio` against every one of `on`. */
function readable(colour: string, toward: string, on: string[], ratio = 4.5): string {
  for (let step = 0; step <= 20; step++) {
    const tried = mix(colour, toward, step / 20);
    if (on.every((background) => contrast(tried, background) >= ratio)) return tried;
  }
  return toward;
}

/** The backgrounds text sits on in each theme (storefront/src/styles.css: --surface, --bg), beside the accent's tint. */
const LIGHT_GROUNDS = ['#ffffff', '#f6f7f9'];
const DARK_GROUNDS = ['#0f1419', '#161b22'];

export interface BrandPalette {
  /** The accent as chosen: decoration only (the header's edge, the browser's theme colour). */
  brand: string;
  /** Links and text in the accent on the light theme's backgrounds; white labels on it read too. */
  ink: string;
  /** The same on the dark theme's backgrounds. */
  darkInk: string;
  /** A button's hover and the dark theme's header: darker still. */
  deep: string;
  /** Panels tinted with the accent (--accent-bg) and their borders, light and dark. */
  tint: string;
  darkTint: string;
  edge: string;
  darkEdge: string;
}

export function brandPalette(accent: string): BrandPalette {
  const tint = mix(accent, '#ffffff', 0.9);
  const darkTint = mix(accent, '#0f1419', 0.82);
  const ink = readable(accent, '#000000', [...LIGHT_GROUNDS, tint]);
  return {
    brand: accent,
    ink,
    darkInk: readable(accent, '#ffffff', [...DARK_GROUNDS, darkTint]),
    deep: mix(ink, '#000000', 0.3),
    tint,
    darkTint,
    edge: mix(accent, '#ffffff', 0.65),
    darkEdge: mix(accent, '#0f1419', 0.55),
  };
}

/**
 * The storefront's custom properties for the school's accent, as a <style> element for every page's head. The app's
 * stylesheet comes later in the head and sets its own on :root: `html:root` is the more specific, so these win.
 */
export function brandStyle(accent: string): string {
  const { brand, ink, darkInk, deep, tint, darkTint, edge, darkEdge } = brandPalette(accent);
  const properties = {
    '--brand': brand,
    '--link': `light-dark(${ink}, ${darkInk})`,
    '--primary': ink,
    '--primary-hover': deep,
    '--primary-text': `light-dark(${ink}, ${darkInk})`,
    '--header-bg': `light-dark(${ink}, ${deep})`,
    '--accent-bg': `light-dark(${tint}, ${darkTint})`,
    '--accent-border': `light-dark(${edge}, ${darkEdge})`,
  };
  const body = Object.entries(properties)
    .map(([name, value]) => `${name}: ${value};`)
    .join(' ');
  return `<style id="school-brand">html:root { ${body} }</style>`;
}
