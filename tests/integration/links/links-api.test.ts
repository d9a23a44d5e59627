import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { assets, integrators, links } from '../../../src/db/schema.ts';
import { call, defaultSeed, OTHER_TOKEN, provision, TEST_TOKEN, useServedApp } from '../../support/app.ts';

/** Links by API: create, read, change, deactivate and reactivate, through the links' one service. */
const served = useServedApp();
const api = (method: string, path: string, body?: unknown, token?: string) => call(served.server.url, method, path, { body, token });
const page = async (slug: string) => {
  const res = await fetch(`${served.server.url}/pay/${slug}`);
  return { status: res.status, html: await res.text() };
};
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const HOSTILE_SVG = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(1)"><script>alert(2)</script><rect width="10" height="10" fill="#c00"/></svg>').toString('base64')}`;

describe('links › by API', () => {
  it('creates a static link with every setting and serves it on /pay/{slug} at once', async () => {
    const res = await api('POST', '/api/v1/links', {
      slug: 'spring-sale',
      title: 'Spring sale',
      description: 'Two books',
      currency: 'PHP',
      amount: '499.50',
      brand_color: '#0f766e',
      logo: PNG,
      labels: { 'customer.first_name': 'Given name' },
      fields: { 'customer.contact.mobile': 'customer' },
      callback_url: 'https://merchant.example/hooks',
      max_payments: 10,
      expires_at: '2030-01-31T23:59:59+08:00',
      locale: 'fil',
    });
    expect(res.status, res.text).toBe(200);
    const link = res.json.data.link;
    expect(link).toMatchObject({
      slug: 'spring-sale',
      url: `${served.server.url}/pay/spring-sale`,
      kind: 'static',
      active: true,
      amount: '499.50',
      min_amount: null,
      currency: 'PHP',
      brand_color: '#0f766e',
      labels: { 'customer.first_name': 'Given name' },
      fields: { 'customer.contact.mobile': 'customer' },
      callback_url: 'https://merchant.example/hooks',
      max_payments: 10,
      expires_at: '2030-01-31T15:59:59.000Z',
      locale: 'fil',
    });
    expect(link.id).toMatch(/^lnk_/);
    expect(link.logo_url).toMatch(new RegExp(`^${served.server.url}/assets/img_`));
    const shown = await page('spring-sale');
    expect(shown.status).toBe(200);
    expect(shown.html).toContain('Spring sale');
    expect((await api('GET', '/api/v1/links/spring-sale')).json.data.link).toEqual(link);
  });

  it('creates a dynamic link (system-filled fields): paid only through the dynamic POST, with a generated slug', async () => {
    const res = await api('POST', '/api/v1/links', { title: 'Invoice', currency: 'PHP', fields: { 'payment.merchant_reference_id': 'system' } });
    expect(res.status, res.text).toBe(200);
    const { slug, kind } = res.json.data.link;
    expect(kind).toBe('dynamic');
    expect(slug).toMatch(/^link-[0-9a-f]{10}$/);
    expect((await page(slug)).status).toBe(404);
    const dynamic = await call(served.server.url, 'POST', `/pay/${slug}`, {
      token: null,
      body: { key: TEST_TOKEN, payment: { amount: '10.00', merchant_reference_id: 'inv-7' } },
    });
    expect(dynamic.status, dynamic.text).toBe(200);
    expect(dynamic.json.link).toMatch(/\/checkout\//);
  });

  it('sanitizes an SVG logo as provisioning does', async () => {
    const res = await api('POST', '/api/v1/links', { title: 'Logo', currency: 'PHP', logo: HOSTILE_SVG });
    expect(res.status, res.text).toBe(200);
    const id = res.json.data.link.logo_url.split('/').pop();
    const [asset] = await served.t.app.db.select().from(assets).where(eq(assets.id, id));
    expect(asset!.contentType).toBe('image/svg+xml');
    expect(asset!.bytes.toString()).not.toMatch(/script|onload/);
  });

  it('refuses bad settings with 422 naming every field, and creates nothing', async () => {
    const before = (await served.t.app.db.select().from(links)).length;
    const res = await api('POST', '/api/v1/links', {
      slug: '-bad',
      title: '',
      currency: 'PHX',
      amount: '1.234',
      brand_color: 'teal',
      logo: 'https://example.com/logo.png',
      fields: { 'customer.shoe_size': 'customer' },
      max_payments: 0,
      colour: 'red',
    });
    expect(res.status).toBe(422);
    expect(res.json.data.status_code).toBe('ER.02.30');
    expect(Object.keys(res.json.messages).sort()).toEqual(
      ['brand_color', 'colour', 'fields.customer.shoe_size', 'logo', 'max_payments', 'slug', 'title'].sort(),
    );
    const rules = await api('POST', '/api/v1/links', {
      title: 'x',
      currency: 'JPY',
      amount: '10.5',
      min_amount: '5',
      callback_url: 'http://169.254.169.254/x',
      logo: 'data:image/png;base64,AAAA',
    });
    expect(rules.status).toBe(422);
    expect(Object.keys(rules.json.messages).sort()).toEqual(['amount', 'callback_url', 'logo', 'min_amount']);
    const currency = await api('POST', '/api/v1/links', { title: 'x', currency: 'PHX' });
    expect(currency.json.messages.currency).toEqual(['PHX is not a supported ISO 4217 currency code']);
    const range = await api('POST', '/api/v1/links', { title: 'x', currency: 'PHP', min_amount: '50', max_amount: '10' });
    expect(range.json.messages.min_amount).toEqual(['must not be above max_amount']);
    const taken = await api('POST', '/api/v1/links', { slug: 'acme-books', title: 'Mine', currency: 'PHP' });
    expect(taken.status).toBe(422);
    expect(taken.json.messages.slug[0]).toMatch(/already taken/);
    expect((await served.t.app.db.select().from(links)).length).toBe(before);
  });

  it('changes a link: the page shows the change at once; null clears; a range replaces a fixed amount', async () => {
    await api('POST', '/api/v1/links', { slug: 'edit-me', title: 'Before', description: 'Old words', currency: 'PHP', amount: '100.00' });
    const res = await api('PATCH', '/api/v1/links/edit-me', { title: 'After', description: null, min_amount: '20.00', max_amount: '80.00' });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.link).toMatchObject({ title: 'After', description: null, amount: null, min_amount: '20.00', max_amount: '80.00' });
    const shown = await page('edit-me');
    expect(shown.html).toContain('After');
    expect(shown.html).not.toContain('Old words');
    const bad = await api('PATCH', '/api/v1/links/edit-me', { max_amount: '10.00' });
    expect(bad.status).toBe(422);
    expect(bad.json.messages.min_amount).toEqual(['must not be above max_amount']);
    expect((await api('GET', '/api/v1/links/edit-me')).json.data.link.max_amount).toBe('80.00');
  });

  it('deactivates and reactivates a link: an inactive link takes no payments', async () => {
    await api('POST', '/api/v1/links', { slug: 'on-off', title: 'On and off', currency: 'PHP', amount: '5.00' });
    const off = await api('PATCH', '/api/v1/links/on-off', { active: false });
    expect(off.json.data.link.active).toBe(false);
    expect((await page('on-off')).status).toBe(404);
    const dynamic = await call(served.server.url, 'POST', '/pay/on-off', { token: null, body: { key: TEST_TOKEN } });
    expect(dynamic.status).toBe(404);
    expect((await api('GET', '/api/v1/links?active=false')).json.data.items.map((l: { slug: string }) => l.slug)).toEqual(['on-off']);
    const on = await api('PATCH', '/api/v1/links/on-off', { active: true });
    expect(on.json.data.link.active).toBe(true);
    expect((await page('on-off')).status).toBe(200);
  });

  it('keeps each integrator to its own links', async () => {
    expect((await api('PATCH', '/api/v1/links/acme-books', { title: 'Mine now' }, OTHER_TOKEN)).status).toBe(404);
    expect((await api('GET', '/api/v1/links/acme-books', undefined, OTHER_TOKEN)).status).toBe(404);
    expect((await api('GET', '/api/v1/links/acme-books')).json.data.link.title).toBe('Acme Books');
    expect((await api('DELETE', '/api/v1/links/acme-books')).status).toBe(405);
  });

  it('a seed re-applied at start keeps edits made through the API, unless its own entry changed', async () => {
    await api('PATCH', '/api/v1/links/acme-open', { title: 'Edited by API' });
    await provision(served.t);
    expect((await api('GET', '/api/v1/links/acme-open')).json.data.link.title).toBe('Edited by API');
    const seed = defaultSeed();
    seed.integrators[0]!.links[1]!.title = 'Changed in the seed';
    await provision(served.t, seed);
    expect((await api('GET', '/api/v1/links/acme-open')).json.data.link.title).toBe('Changed in the seed');
  });
});

describe('links › hostile logos', () => {
  const dataUrl = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;

  it('an SVG logo with an entity declared in a DOCTYPE after a comment is refused with 422 naming logo, and stores nothing', async () => {
    const laugh = 'lol'.repeat(150);
    const bomb = `<!-- a --> <!DOCTYPE svg [ <!-- <!ENTITY a "${laugh}"> --> ]><!-- b --><svg xmlns="http://www.w3.org/2000/svg"><text>${'&a;'.repeat(500)}</text></svg>`;
    const before = (await served.t.app.db.select({ id: assets.id }).from(assets)).length;
    const started = performance.now();
    const res = await api('POST', '/api/v1/links', { title: 'Bomb', currency: 'PHP', logo: dataUrl(bomb) });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(res.status, res.text).toBe(422);
    expect(res.json.data.status_code).toBe('ER.02.30');
    expect(res.json.messages.logo).toEqual(['the SVG has a DOCTYPE, which logos may not contain; save it again without one']);
    expect((await served.t.app.db.select({ id: assets.id }).from(assets)).length).toBe(before);
  });

  it('a stored logo larger than a logo may be now is not served', async () => {
    const id = `img_${'a'.repeat(32)}`;
    const [integrator] = await served.t.app.db.select({ id: integrators.id }).from(integrators).limit(1);
    const big = Buffer.concat([Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">'), Buffer.alloc(600 * 1024, 0x20), Buffer.from('</svg>')]);
    await served.t.app.db.insert(assets).values({ id, integratorId: integrator!.id, contentType: 'image/svg+xml', sha256: 'x', bytes: big });
    const res = await fetch(`${served.server.url}/assets/${id}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(served.t.logs.some((line) => line.includes('a stored logo is larger than a logo may be') && line.includes(id))).toBe(true);
  });
});
