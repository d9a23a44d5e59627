/**
 * A link's address made from its title as the merchant types (the editor suggests it; the
 * slug rule of src/schemas/link.ts decides): lowercase letters and digits joined by single
 * dashes, accents dropped, at most 64 characters. No zod here: the editor's script loads it.
 */
export const SLUG_MAX = 64;

/** Addresses the console itself uses under /console/links/ (a link named so could not be opened). */
const RESERVED = new Set(['new', 'preview']);

export function slugFromTitle(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
  return RESERVED.has(slug) ? `${slug}-link` : slug;
}

/** `#1d4ed8` from what a merchant types (`1D4ED8`, ` #1d4ed8 `); undefined when it is not six hex digits. */
export function hexColour(text: string): string | undefined {
  const m = /^#?([0-9a-fA-F]{6})$/.exec(text.trim());
  return m ? `#${m[1]!.toLowerCase()}` : undefined;
}
