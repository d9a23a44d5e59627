import { describe, expect, it } from 'vitest';
import { linkCreateSchema } from '../../../src/schemas/link.ts';
import { hexColour, SLUG_MAX, slugFromTitle } from '../../../src/schemas/slug.ts';

describe('slug from title', () => {
  it('lower-cases, drops accents and joins words with single dashes', () => {
    expect(slugFromTitle('Café Crème & Co. — Workshop!')).toBe('cafe-creme-co-workshop');
    expect(slugFromTitle('  Yoga   class 2027 ')).toBe('yoga-class-2027');
  });

  it('makes nothing of a title without letters or digits', () => {
    expect(slugFromTitle('¡¿…?!')).toBe('');
  });

  it('stays within 64 characters and never ends with a dash', () => {
    const slug = slugFromTitle(`${'a'.repeat(63)} b`);
    expect(slug.length).toBeLessThanOrEqual(SLUG_MAX);
    expect(slug).toBe('a'.repeat(63));
  });

  it('steers clear of the console’s own addresses (new, preview)', () => {
    expect(slugFromTitle('New')).toBe('new-link');
    expect(slugFromTitle('Preview')).toBe('preview-link');
  });

  it('always makes a slug the API’s rule accepts', () => {
    for (const title of ['Café Crème', 'A', 'x'.repeat(200), 'Ünïcödé — 😀 tickets', '9 to 5']) {
      const slug = slugFromTitle(title);
      const parsed = linkCreateSchema.safeParse({ slug, title: title.slice(0, 100), currency: 'PHP', amount: '1' });
      expect(parsed.success, `${title} → ${slug}`).toBe(true);
    }
  });
});

describe('hex colour', () => {
  it('reads six hex digits with or without #, lower-cased', () => {
    expect(hexColour('#1D4ED8')).toBe('#1d4ed8');
    expect(hexColour(' 7c2d12 ')).toBe('#7c2d12');
  });

  it('refuses three digits, other letters and longer text', () => {
    for (const text of ['#123', '#12345g', '#1234567', 'blue', '']) expect(hexColour(text), text).toBeUndefined();
  });
});
