/**
 * A link's brand colour, made safe to use: the text colour on it is black or white, whichever
 * contrasts more (one of them always reaches at least 4.5:1, WCAG AA for normal text).
 */
export const DEFAULT_BRAND_COLOR = '#1d4ed8';

function channel(c: number): number {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of #rrggbb. */
export function luminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

export interface Theme {
  brand: string;
  onBrand: '#000000' | '#ffffff';
}

export function themeFor(brandColor: string | null | undefined): Theme {
  const brand = brandColor && /^#[0-9a-fA-F]{6}$/.test(brandColor) ? brandColor.toLowerCase() : DEFAULT_BRAND_COLOR;
  const onBrand = contrastRatio(brand, '#ffffff') >= contrastRatio(brand, '#000000') ? '#ffffff' : '#000000';
  return { brand, onBrand };
}

/** The one inline <style> a payment page carries (its hash goes into the page CSP). */
export const themeCss = (theme: Theme) => `:root{--brand:${theme.brand};--on-brand:${theme.onBrand}}`;
