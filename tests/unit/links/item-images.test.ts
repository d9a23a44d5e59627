import { describe, expect, it } from 'vitest';
import { itemImageUrl, readItemImages } from '../../../src/domain/links/item-images.ts';
import { MAX_LOGO_BYTES } from '../../../src/domain/links/logos.ts';

/** Item images are checked as logos are: the type from the bytes, 512 KiB, SVG sanitised; refusals name `items.N.image`. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);
const dataUrl = (bytes: Buffer | string, declared = 'image/png') => `data:${declared};base64,${Buffer.from(bytes).toString('base64')}`;
const item = (image: string | null | undefined) => ({ id: 'a', name: { en: 'A' }, unit_amount: '1', ...(image === undefined ? {} : { image }) });

async function read(images: (string | null | undefined)[], baseDir?: string) {
  const problems: Record<string, string> = {};
  const out = await readItemImages(images.map(item), baseDir === undefined ? {} : { baseDir }, (field, message) => {
    problems[field] = message;
  });
  return { out, problems };
}

describe('item images › reading', () => {
  it('reads the type from the bytes, whatever the data: URL declares', async () => {
    const { out, problems } = await read([dataUrl(PNG, 'image/jpeg'), dataUrl(WEBP, 'text/plain')]);
    expect(problems).toEqual({});
    expect(out.map((o) => o?.contentType)).toEqual(['image/png', 'image/webp']);
  });

  it('keeps absent as "keep the saved image" and null as "none"', async () => {
    const { out } = await read([undefined, null]);
    expect(out).toEqual([undefined, null]);
  });

  it('sanitises an SVG: no script, no handler, no external reference', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" onload="x()"><script>x()</script><image href="https://evil.example/a.png"/><rect width="2" height="2"/></svg>';
    const { out, problems } = await read([dataUrl(svg, 'image/svg+xml')]);
    expect(problems).toEqual({});
    const cleaned = out[0] ? out[0].bytes.toString('utf8') : '';
    expect(cleaned).toContain('<rect');
    expect(cleaned).not.toMatch(/script|onload|evil\.example/);
  });

  it('refuses each bad image by its item, with the reason', async () => {
    const { problems } = await read([dataUrl('GIF89a'), dataUrl(Buffer.concat([PNG, Buffer.alloc(MAX_LOGO_BYTES)])), 'data:image/png;base64,', dataUrl(PNG)]);
    expect(problems).toEqual({
      'items.0.image': 'the image must be a PNG, JPEG, WebP or SVG image',
      'items.1.image': 'the image is 513 KiB; at most 512 KiB is accepted',
      'items.2.image': 'the image file is empty',
    });
  });

  it('reads a file path only where the seed gives a folder: elsewhere an image is a data: URL, never a file', async () => {
    expect((await read(['/etc/hostname'])).problems).toEqual({ 'items.0.image': 'must be a data: URL (data:image/png;base64,…)' });
    expect((await read(['missing.png'], '/nonexistent')).problems['items.0.image']).toMatch(/^the image file missing\.png cannot be read: ENOENT/);
  });
});

describe('item images › addresses', () => {
  it('serves a stored image from /assets, shows a preview’s checked data: URL as it is, and none as null', () => {
    expect(itemImageUrl({ image: 'img_0123456789abcdef0123456789abcdef' })).toBe('/assets/img_0123456789abcdef0123456789abcdef');
    expect(itemImageUrl({ image: 'data:image/png;base64,AAAA' })).toBe('data:image/png;base64,AAAA');
    expect(itemImageUrl({})).toBeNull();
  });
});
