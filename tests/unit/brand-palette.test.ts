import { describe, expect, it } from 'vitest';
import { brandPalette, brandStyle, contrast } from '../../api/src/web/brand-palette';
import { pageTitle } from '../../api/src/shared/page-title';

describe("the storefront's colours from the school's accent", () => {
  it('measures contrast as WCAG does', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#ffffff', '#ffffff')).toBe(1);
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2); // the lightest grey that passes AA on white
  });

  it('keeps an accent that reads, and darkens (or lightens, in the dark theme) one that does not, to 4.5:1', () => {
    expect(brandPalette('#0f766e').ink).toBe('#0f766e');
    for (const accent of ['#ffffff', '#ffd400', '#7dd3fc', '#22c55e', '#ff0000', '#1d4ed8', '#000000', '#808080']) {
      const { ink, darkInk, tint, darkTint, brand } = brandPalette(accent);
      expect(brand).toBe(accent);
      for (const ground of ['#ffffff', '#f6f7f9', tint])
        expect(contrast(ink, ground), accent).toBeGreaterThanOrEqual(4.5);
      for (const ground of ['#0f1419', '#161b22', darkTint]) {
        expect(contrast(darkInk, ground), accent).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('writes the palette as custom properties of the root', () => {
    const style = brandStyle('#ffd400');
    expect(style).toMatch(
      /^<style id="school-brand">html:root \{ --brand: #ffd400; --link: light-dark\(#[0-9a-f]{6}, #[0-9a-f]{6}\);/,
    );
  });
});

describe("a page's title", () => {
  it("is the page's own, then the school's name; the school's name alone when it is the page's", () => {
    expect(pageTitle('Generics', 'Typed Academy')).toBe('Generics — Typed Academy');
    expect(pageTitle('Typed Academy', 'Typed Academy')).toBe('Typed Academy');
    expect(pageTitle(undefined, 'Typed Academy')).toBe('Typed Academy');
  });
});
