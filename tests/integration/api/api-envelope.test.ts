import { describe, expect, it } from 'vitest';
import { call, createTestApp, OTHER_TOKEN, startTestServer, TEST_TOKEN, useServedApp } from '../../support/app.ts';

const served = useServedApp();

const ENVELOPE_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/;

describe('api envelope', () => {
  it('answers an authenticated request with the spec envelope', async () => {
    const res = await call(served.server.url, 'GET', '/api/v1/integrator');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      status: 200,
      message: 'OK',
      path: '/api/v1/integrator',
      data: { status_code: 'OK.00.00', integrator: { name: 'Acme Books' } },
    });
    expect(res.json.timestamp).toMatch(ENVELOPE_TIMESTAMP);
    expect(res.json.data.integrator).not.toHaveProperty('token_hash');
  });

  it('accepts the token raw and as a Bearer token', async () => {
    expect(
      (await call(served.server.url, 'GET', '/api/v1/integrator', { headers: { authorization: `Bearer ${OTHER_TOKEN}` } })).json.data.integrator.name,
    ).toBe('Other Shop');
    expect((await call(served.server.url, 'GET', '/api/v1/integrator', { token: TEST_TOKEN })).status).toBe(200);
  });

  it('rejects a missing or unknown Authorization with a 401 envelope', async () => {
    const missing = await call(served.server.url, 'GET', '/api/v1/integrator', { token: null });
    expect(missing.status).toBe(401);
    expect(missing.json).toMatchObject({ status: 401, data: { status_code: 'ER.01.00' }, messages: { authorization: [expect.any(String)] } });
    const unknown = await call(served.server.url, 'GET', '/api/v1/integrator', { token: 'not-a-real-token-but-long-enough-to-check' });
    expect(unknown.status).toBe(401);
    expect(unknown.json.data.status_code).toBe('ER.01.00');
  });

  it('answers an unknown API route with a 404 envelope', async () => {
    const res = await call(served.server.url, 'POST', '/api/v1/no-such-thing', { body: {} });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ status: 404, path: '/api/v1/no-such-thing', data: { status_code: 'ER.02.34' } });
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const res = await call(served.server.url, 'DELETE', '/api/v1/integrator');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, PATCH');
    expect(res.json.data.status_code).toBe('ER.02.35');
  });

  it('serves /healthz after checking the database', async () => {
    const res = await call(served.server.url, 'GET', '/healthz', { token: null });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok', database: served.t.app.database.kind });
  });

  it('compresses JSON and HTML for clients that accept it, and the client reads the envelope intact', async () => {
    const headers = { 'accept-encoding': 'gzip', authorization: TEST_TOKEN, 'content-type': 'application/json' };
    // An envelope carries its Content-Length, so the 1 KiB threshold applies: a small one is sent as it
    // is (compressing a few hundred bytes costs more CPU than the bytes it saves), a large one compressed.
    const small = await fetch(`${served.server.url}/api/v1/no-such-thing`, { headers });
    expect(small.status).toBe(404);
    expect(small.headers.get('content-encoding')).toBeNull();
    const smallText = await small.text();
    expect(Number(small.headers.get('content-length'))).toBe(Buffer.byteLength(smallText));
    expect(JSON.parse(smallText).data.status_code).toBe('ER.02.34');
    // 40 unknown fields: a 422 envelope naming each of them, well over 1 KiB.
    const body = JSON.stringify(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`unknown_field_${i}`, i])));
    const large = await fetch(`${served.server.url}/api/v1/card-registrations`, { method: 'POST', headers, body });
    expect(large.status).toBe(422);
    expect(large.headers.get('content-encoding')).toBe('gzip');
    expect(large.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const json = await large.json(); // fetch undoes the gzip: the envelope is intact
    expect(json.data.status_code).toBe('ER.02.30');
    expect(JSON.stringify(json).length).toBeGreaterThan(1024);
    const page = await fetch(`${served.server.url}/nothing-here`, { headers: { 'accept-encoding': 'br' } });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(await page.text()).toContain('</html>');
  });

  it('serves hashed assets compressed with a year-long immutable cache', async () => {
    const page = await (await fetch(`${served.server.url}/pay/acme-books`)).text();
    const asset = /"(\/_astro\/[^"]+\.js)"/.exec(page)?.[1]; // the island's component-url
    expect(asset).toBeDefined();
    const res = await fetch(served.server.url + asset, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('content-type')).toContain('javascript');
  });

  it('sets security headers on every response', async () => {
    const res = await fetch(`${served.server.url}/healthz`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    // Plain HTTP without a trusted proxy: no HSTS (it would be ignored, and wrong on localhost).
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('sends HSTS behind a trusted TLS proxy only', async () => {
    const proxied = await createTestApp({ env: { PAYLINK_TRUST_PROXY: '1' } });
    const proxiedServer = await startTestServer(proxied.app);
    try {
      const https = await fetch(`${proxiedServer.url}/healthz`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(https.headers.get('strict-transport-security')).toContain('max-age=31536000');
      const http = await fetch(`${proxiedServer.url}/healthz`, { headers: { 'x-forwarded-proto': 'http' } });
      expect(http.headers.get('strict-transport-security')).toBeNull();
    } finally {
      await proxiedServer.close();
      await proxied.close();
    }
    const untrusted = await fetch(`${served.server.url}/healthz`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(untrusted.headers.get('strict-transport-security')).toBeNull();
  });
});
