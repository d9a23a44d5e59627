import { describe, expect, it } from 'vitest';
import { contrastRatio, DEFAULT_BRAND_COLOR, themeFor } from '../../../src/domain/links/theme.ts';

describe('link theme', () => {
  it('puts black or white text on the brand colour, whichever reaches WCAG AA', () => {
    for (const color of ['#ffd400', '#7c2d12', '#0f766e', '#777777', '#808080', '#ffffff', '#000000', '#1d4ed8', '#22c55e']) {
      const theme = themeFor(color);
      expect(contrastRatio(theme.brand, theme.onBrand)).toBeGreaterThanOrEqual(4.5);
    }
    expect(themeFor('#ffd400').onBrand).toBe('#000000');
    expect(themeFor('#7c2d12').onBrand).toBe('#ffffff');
  });

  it('falls back to the default colour for a missing or malformed value', () => {
    expect(themeFor(null).brand).toBe(DEFAULT_BRAND_COLOR);
    expect(themeFor('red;}body{display:none').brand).toBe(DEFAULT_BRAND_COLOR);
  });
});
