import QRCode from 'qrcode';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, useServedApp } from '../../support/app.ts';

/**
 * QR codes (/pay/{slug}/qr.svg|png) are drawn once per link version and kept in memory
 * (QrCache, src/domain/links/qr.ts), sent with an ETag that answers 304, and a client address
 * may have only so many drawn per window (PAYLINK_LIMIT_QR_RENDERS, 429 ER.02.70).
 */
const draws = () => {
  const svg = vi.spyOn(QRCode, 'toString');
  const png = vi.spyOn(QRCode, 'toBuffer');
  return () => svg.mock.calls.length + png.mock.calls.length;
};
afterEach(() => vi.restoreAllMocks());

describe('QR codes › drawn once per link version', () => {
  const served = useServedApp();
  const qr = (path: string, headers: Record<string, string> = {}) => fetch(`${served.server.url}${path}`, { headers });

  it('a second request is served from memory, not drawn again', async () => {
    const drawn = draws();
    const first = await qr('/pay/acme-books/qr.png');
    const second = await qr('/pay/acme-books/qr.png');
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(Buffer.from(await second.arrayBuffer()).equals(Buffer.from(await first.arrayBuffer()))).toBe(true);
    expect(drawn()).toBe(1);
    const svg = await qr('/pay/acme-books/qr.svg');
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(await svg.text()).toMatch(/^<svg/);
    expect(drawn()).toBe(2);
  });

  it('answers 304 to If-None-Match with its ETag, without drawing', async () => {
    const first = await qr('/pay/acme-books/qr.svg');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"qr-[A-Za-z0-9_-]{27}"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=3600');
    const drawn = draws();
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await qr('/pay/acme-books/qr.svg', { 'if-none-match': ifNoneMatch });
      expect(again.status, ifNoneMatch).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      expect(await again.text()).toBe('');
    }
    expect((await qr('/pay/acme-books/qr.svg', { 'if-none-match': '"qr-stale"' })).status).toBe(200);
    // The SVG and the PNG of one link are different images.
    expect((await qr('/pay/acme-books/qr.png', { 'if-none-match': etag })).status).toBe(200);
    expect(drawn()).toBe(0);
  });

  it('an address that names no link is 404 without a drawing or a database error', async () => {
    const drawn = draws();
    for (const slug of ['no-such-link', '%00', 'ACME-BOOKS', `${'a'.repeat(200)}`, '..%2F..%2Fetc', 'acme-books%20'])
      for (const ext of ['svg', 'png']) {
        const res = await qr(`/pay/${slug}/qr.${ext}`);
        expect(res.status, `${slug} ${ext}`).toBe(404);
        expect(res.headers.get('etag')).toBeNull();
      }
    expect(drawn()).toBe(0);
    expect(served.t.logs.filter((line) => line.includes('"level":"error"'))).toEqual([]);
  });

  it('a changed link gets a new ETag and is drawn again', async () => {
    const before = await qr('/pay/acme-books/qr.svg');
    const etag = before.headers.get('etag')!;
    const changed = await call(served.server.url, 'PATCH', '/api/v1/links/acme-books', { body: { title: 'Acme Books, new edition' } });
    expect(changed.status, changed.text).toBe(200);
    const drawn = draws();
    const after = await qr('/pay/acme-books/qr.svg', { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(drawn()).toBe(1);
  });
});

describe('QR codes › drawings per client address', () => {
  const served = useServedApp({ env: { PAYLINK_LIMIT_QR_RENDERS: '2/60' } });
  const qr = (path: string, headers: Record<string, string> = {}) => fetch(`${served.server.url}${path}`, { headers });

  it('refuses a client over its drawings with 429 ER.02.70 and Retry-After; kept codes and 304s are still served', async () => {
    const svg = await qr('/pay/acme-books/qr.svg');
    expect(svg.status).toBe(200);
    expect((await qr('/pay/acme-books/qr.png')).status).toBe(200);
    const drawn = draws();
    const refused = await call(served.server.url, 'GET', '/pay/acme-open/qr.svg', { token: null });
    expect(refused.status, refused.text).toBe(429);
    expect(refused.json.data.status_code).toBe('ER.02.70');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.json.messages['(request)'][0]).toMatch(/^more than 2 QR codes were drawn for your network in 60 seconds; try again in \d+ seconds$/);
    expect(drawn()).toBe(0);
    // Already drawn: no drawing, no count.
    expect((await qr('/pay/acme-books/qr.svg')).status).toBe(200);
    expect((await qr('/pay/acme-books/qr.svg', { 'if-none-match': svg.headers.get('etag')! })).status).toBe(304);
  });
});
