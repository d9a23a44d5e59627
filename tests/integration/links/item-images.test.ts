import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { assets, links } from '../../../src/db/schema.ts';
import { call, defaultSeed, provision, useServedApp } from '../../support/app.ts';

/**
 * Item images through the links API and the seed: uploaded as the logo is (type read from the bytes,
 * SVG sanitised, 512 KiB), served from /assets with long caching, shown beside each item line on the
 * payment page, removed and replaced without leaving unused images behind; and dropdown choices in
 * the page's language.
 */
const served = useServedApp();
const api = (method: string, path: string, body?: unknown) => call(served.server.url, method, path, { body });
const row = async (slug: string) => (await served.t.app.db.select().from(links).where(eq(links.slug, slug)))[0]!;
const assetIds = async () => (await served.t.app.db.select({ id: assets.id }).from(assets)).map((a) => a.id).sort();
const idOf = (url: string) => url.split('/').pop()!;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** PNG bytes (the signature and a body that tells them apart): the type is read from these. */
const pngBytes = (tag: string) => Buffer.concat([PNG_SIGNATURE, Buffer.from(`IHDR ${tag}`)]);
const dataUrl = (bytes: Buffer, declared = 'image/png') => `data:${declared};base64,${bytes.toString('base64')}`;
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF jpeg body')]);
const HOSTILE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8" onload="alert(1)"><script>alert(2)</script><rect width="8" height="8" fill="#0a0"/></svg>';

const item = (id: string, en: string, extra: Record<string, unknown> = {}) => ({ id, name: { en, fil: `${en} (fil)` }, unit_amount: '100.00', ...extra });

describe('item images › by API', () => {
  it('stores each item’s image, shows its image_url, and serves it with its sniffed type and a year of caching', async () => {
    const res = await api('POST', '/api/v1/links', {
      slug: 'pics',
      title: 'Pictures',
      currency: 'PHP',
      items: [
        item('mug', 'Mug', { image: dataUrl(pngBytes('mug')) }),
        // Declared PNG, but the bytes are a JPEG: the bytes decide.
        item('tee', 'Tee', { image: dataUrl(JPEG, 'image/png') }),
        item('svg', 'Sticker', { image: dataUrl(Buffer.from(HOSTILE_SVG), 'image/svg+xml') }),
        item('plain', 'Plain'),
      ],
    });
    expect(res.status, res.text).toBe(200);
    const shown = res.json.data.link.items as { id: string; image_url: string | null }[];
    expect(shown.map((i) => i.image_url)).toEqual([
      expect.stringMatching(new RegExp(`^${served.server.url}/assets/img_[0-9a-f]{32}$`)),
      expect.stringMatching(/\/assets\/img_/),
      expect.stringMatching(/\/assets\/img_/),
      null,
    ]);
    expect((await row('pics')).items.map((i) => i.image)).toEqual([
      idOf(shown[0]!.image_url!),
      idOf(shown[1]!.image_url!),
      idOf(shown[2]!.image_url!),
      undefined,
    ]);

    const png = await fetch(shown[0]!.image_url!);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(png.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await png.arrayBuffer())).toEqual(pngBytes('mug'));
    expect((await fetch(shown[1]!.image_url!)).headers.get('content-type')).toBe('image/jpeg');
    const svg = await fetch(shown[2]!.image_url!);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('content-security-policy')).toContain('sandbox');
    const cleaned = await svg.text();
    expect(cleaned).toContain('<rect');
    expect(cleaned).not.toMatch(/script|onload/i);
    expect((await api('GET', '/api/v1/links/pics')).json.data.link.items).toEqual(shown);
  });

  it('keeps an item’s image when a change sends the item without one, removes it with null, and drops images no link uses', async () => {
    const created = await api('POST', '/api/v1/links', {
      slug: 'swap',
      title: 'Swap',
      currency: 'PHP',
      items: [item('a', 'A', { image: dataUrl(pngBytes('a')) }), item('b', 'B', { image: dataUrl(pngBytes('b')) })],
    });
    expect(created.status, created.text).toBe(200);
    const [a, b] = (created.json.data.link.items as { image_url: string }[]).map((i) => idOf(i.image_url));
    // Another link shows B's image too (same bytes, one asset): it stays while that link uses it.
    const other = await api('POST', '/api/v1/links', {
      slug: 'swap-other',
      title: 'Other',
      currency: 'PHP',
      items: [item('x', 'X', { image: dataUrl(pngBytes('b')) })],
    });
    expect(idOf(other.json.data.link.items[0].image_url)).toBe(b);

    const renamed = await api('PATCH', '/api/v1/links/swap', { items: [item('a', 'A renamed'), item('b', 'B')] });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await row('swap')).items.map((i) => i.image)).toEqual([a, b]);

    const replaced = await api('PATCH', '/api/v1/links/swap', { items: [item('a', 'A', { image: dataUrl(pngBytes('a2')) }), item('b', 'B', { image: null })] });
    expect(replaced.status, replaced.text).toBe(200);
    const [a2, none] = replaced.json.data.link.items.map((i: { image_url: string | null }) => i.image_url);
    expect(none).toBeNull();
    expect(idOf(a2)).not.toBe(a);
    const ids = await assetIds();
    expect(ids).not.toContain(a);
    expect(ids).toContain(b);
    expect((await fetch(`${served.server.url}/assets/${a}`)).status).toBe(404);

    // Items gone with their images: the link keeps none of them.
    const cleared = await api('PATCH', '/api/v1/links/swap', { items: [], amount: '10.00' });
    expect(cleared.status, cleared.text).toBe(200);
    expect(await assetIds()).not.toContain(idOf(a2));
  });

  it('never drops an image another save is starting to use at the same time', async () => {
    for (let round = 0; round < 5; round++) {
      const bytes = pngBytes(`race ${round}`);
      await api('POST', '/api/v1/links', { slug: `race-a-${round}`, title: 'A', currency: 'PHP', items: [item('a', 'A', { image: dataUrl(bytes) })] });
      await api('POST', '/api/v1/links', { slug: `race-b-${round}`, title: 'B', currency: 'PHP', items: [item('b', 'B')] });
      const [dropped, taken] = await Promise.all([
        api('PATCH', `/api/v1/links/race-a-${round}`, { items: [item('a', 'A', { image: null })] }),
        api('PATCH', `/api/v1/links/race-b-${round}`, { items: [item('b', 'B', { image: dataUrl(bytes) })] }),
      ]);
      expect([dropped.status, taken.status]).toEqual([200, 200]);
      const served_ = await fetch(taken.json.data.link.items[0].image_url);
      expect(served_.status).toBe(200);
    }
  });

  it('refuses a bad image naming items.N.image, and changes nothing', async () => {
    await api('POST', '/api/v1/links', { slug: 'strict', title: 'Strict', currency: 'PHP', items: [item('a', 'A', { image: dataUrl(pngBytes('strict')) })] });
    const before = { link: await row('strict'), assets: await assetIds() };
    const tooBig = Buffer.concat([PNG_SIGNATURE, Buffer.alloc(512 * 1024)]);
    const res = await api('PATCH', '/api/v1/links/strict', {
      title: 'Changed',
      items: [
        item('a', 'A', { image: dataUrl(Buffer.from('GIF89a not taken')) }),
        item('b', 'B', { image: dataUrl(tooBig) }),
        item('c', 'C', { image: dataUrl(Buffer.from('<!DOCTYPE svg [<!ENTITY x "y">]><svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml') }),
        item('d', 'D', { image: 'data:image/png;base64,' }),
        item('f', 'F', { image: dataUrl(pngBytes('fine')) }),
      ],
    });
    expect(res.status).toBe(422);
    expect(res.json.data.status_code).toBe('ER.02.30');
    expect(res.json.messages).toEqual({
      'items.0.image': ['the image must be a PNG, JPEG, WebP or SVG image'],
      'items.1.image': ['the image is 513 KiB; at most 512 KiB is accepted'],
      'items.2.image': ['the SVG has a DOCTYPE, which logos may not contain; save it again without one'],
      'items.3.image': ['the image file is empty'],
    });
    const address = await api('PATCH', '/api/v1/links/strict', { items: [item('a', 'A', { image: 'https://example.com/a.png' })] });
    expect(address.status).toBe(422);
    expect(address.json.messages).toEqual({ 'items.0.image': ['must be a data: URL (data:image/png;base64,…)'] });
    expect(await row('strict')).toEqual(before.link);
    expect(await assetIds()).toEqual(before.assets);
  });
});

describe('item images › on the payment page', () => {
  it('shows a fixed-size, lazy thumbnail named by the item in the page’s language beside each line that has one', async () => {
    await api('POST', '/api/v1/links', {
      slug: 'pics-page',
      title: 'Pictures page',
      currency: 'PHP',
      locale: 'fil',
      items: [item('mug', 'Mug', { image: dataUrl(pngBytes('page mug')) }), item('plain', 'Plain')],
    });
    const image = (await row('pics-page')).items[0]!.image;
    const html = await (await fetch(`${served.server.url}/pay/pics-page`)).text();
    const imgs = html.match(/<img[^>]*class="sale-item-image"[^>]*>/g) ?? [];
    expect(imgs).toHaveLength(1);
    for (const attribute of [`src="/assets/${image}"`, 'alt="Mug (fil)"', 'width="56"', 'height="56"', 'loading="lazy"']) expect(imgs[0]).toContain(attribute);
    const english = await (await fetch(`${served.server.url}/pay/pics-page`, { headers: { 'accept-language': 'en' } })).text();
    expect(english).toMatch(/<img[^>]*alt="Mug"/);
  });
});

describe('item images › seed file', () => {
  it('reads an item’s image from a file beside the seed; an entry without one has none', async () => {
    writeFileSync(join(served.t.dataDir, 'mug.png'), pngBytes('seed mug'));
    const seed = defaultSeed();
    seed.integrators[0]!.links.push({
      slug: 'seeded-pics',
      title: 'Seeded',
      currency: 'PHP',
      labels: {},
      fields: {},
      active: true,
      items: [item('mug', 'Mug', { image: 'mug.png' }), item('plain', 'Plain')],
    } as never);
    await provision(served.t, seed);
    const shown = (await api('GET', '/api/v1/links/seeded-pics')).json.data.link.items;
    expect(shown[1].image_url).toBeNull();
    const served_ = await fetch(shown[0].image_url);
    expect(Buffer.from(await served_.arrayBuffer())).toEqual(pngBytes('seed mug'));

    const missing = defaultSeed();
    missing.integrators[0]!.links.push({
      slug: 'seeded-missing',
      title: 'Missing',
      currency: 'PHP',
      labels: {},
      fields: {},
      active: true,
      items: [item('mug', 'Mug', { image: 'nope.png' })],
    } as never);
    await expect(provision(served.t, missing)).rejects.toThrow(/items\.0\.image: the image file nope\.png cannot be read: ENOENT/);
  });
});

describe('dropdown choices › in the page’s language', () => {
  it('labels each choice in the page’s language (English where none is written) and keeps its value', async () => {
    const res = await api('POST', '/api/v1/links', {
      slug: 'class-choice',
      title: 'Class',
      currency: 'PHP',
      amount: '100.00',
      questions: [
        {
          id: 'slot',
          type: 'dropdown',
          label: { en: 'Which class?', fil: 'Aling klase?', es: '¿Qué clase?' },
          options: [
            { value: 'morning', label: { en: 'Morning', fil: 'Umaga', es: 'Mañana' } },
            { value: 'evening', label: { en: 'Evening', es: 'Tarde' } },
          ],
        },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const options = async (lang: string) => {
      const html = await (await fetch(`${served.server.url}/pay/class-choice`, { headers: { 'accept-language': lang } })).text();
      const select = /<select id="ask-slot"[\s\S]*?<\/select>/.exec(html)?.[0] ?? '';
      return [...select.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].slice(1).map((m) => [m[1], m[2]]);
    };
    expect(await options('en')).toEqual([
      ['morning', 'Morning'],
      ['evening', 'Evening'],
    ]);
    expect(await options('fil')).toEqual([
      ['morning', 'Umaga'],
      ['evening', 'Evening'],
    ]);
    expect(await options('es')).toEqual([
      ['morning', 'Mañana'],
      ['evening', 'Tarde'],
    ]);
  });
});
