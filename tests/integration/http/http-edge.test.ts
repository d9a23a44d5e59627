import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TEST_TOKEN, useServedApp } from '../../support/app.ts';
import { chunkedJsonRequest, chunkedRequest, getRequest, lengthRequest, type RawResponse, rawExchange } from '../../support/raw-http.ts';

/**
 * The HTTP edge in front of the routes: methods no route takes, bodies over the 1 MiB every
 * route stops at, paths that cannot be decoded, and the proxy's X-Forwarded-Proto. Each is a
 * clean 4xx (an envelope, or a page in words for a console form), never a 500, never a line at
 * error level on stderr or in the log.
 */
const served = useServedApp();
const url = () => served.server.url;

/** What reaches stderr (Astro logs through console.error) while a test runs. */
let stderr: string[] = [];
let errorLogsBefore = 0;
beforeEach(() => {
  stderr = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void stderr.push(args.map(String).join(' ')));
  const write = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
    stderr.push(String(chunk));
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write);
  errorLogsBefore = errorLogs().length;
});
afterEach(() => vi.restoreAllMocks());
const errorLogs = () => served.t.logs.filter((line) => JSON.parse(line).level === 'error');
const expectNothingAtErrorLevel = () => {
  expect(stderr.filter((line) => /ERROR|Error|at /.test(line))).toEqual([]);
  expect(errorLogs().slice(errorLogsBefore)).toEqual([]);
};

const envelopeOf = (res: RawResponse) => JSON.parse(res.body);
const paths = [
  '/api/v1/refund',
  '/api/v1/transactions/txn_x',
  '/pay/acme-books',
  '/checkout/abc/pay',
  '/webhooks/paymongo/whk_x',
  '/favicon.svg',
  '/healthz',
  '/console',
  '/',
];

describe('http edge › methods no route takes', () => {
  it('answers TRACE, TRACK, PROPFIND and other WebDAV methods with the 405 envelope on every path, API, pages, webhooks, static files and /healthz', async () => {
    for (const method of ['TRACE', 'TRACK', 'PROPFIND', 'MKCOL', 'LOCK']) {
      for (const path of paths) {
        const { responses } = await rawExchange(url(), [`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${TEST_TOKEN}\r\n\r\n`]);
        expect(responses[0]?.status, `${method} ${path}`).toBe(405);
        expect(responses[0]!.headers.allow, `${method} ${path}`).toBe('GET, HEAD, POST, PATCH, DELETE');
        expect(envelopeOf(responses[0]!), `${method} ${path}`).toMatchObject({ status: 405, path, data: { status_code: 'ER.02.35' } });
      }
    }
    expectNothingAtErrorLevel();
  });

  it('answers CONNECT, a lower-case method and an unknown token with the 405 envelope, and closes the connection', async () => {
    for (const line of [
      'CONNECT 127.0.0.1:443 HTTP/1.1',
      'CONNECT /api/v1/refund HTTP/1.1',
      'get /healthz HTTP/1.1',
      'post /api/v1/refund HTTP/1.1',
      'FROB /pay/acme-books HTTP/1.1',
    ]) {
      const { responses, closed } = await rawExchange(url(), [`${line}\r\nHost: 127.0.0.1\r\n\r\n`]);
      expect(responses[0]?.status, line).toBe(405);
      expect(envelopeOf(responses[0]!).data.status_code, line).toBe('ER.02.35');
      expect(responses[0]!.headers.allow).toBe('GET, HEAD, POST, PATCH, DELETE');
      expect(closed || responses[0]!.headers.connection === 'close', line).toBe(true);
    }
    expectNothingAtErrorLevel();
  });

  it('answers /healthz for GET and HEAD only, and serves static files to GET and HEAD only', async () => {
    const post = await fetch(`${url()}/healthz`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect((await post.json()).data.status_code).toBe('ER.02.35');
    expect((await fetch(`${url()}/healthz`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${url()}/favicon.svg`)).status).toBe(200);
    const put = await fetch(`${url()}/favicon.svg`, { method: 'PUT', body: 'x' });
    expect(put.status).toBe(404);
    await put.arrayBuffer();
  });

  it('still lets routes answer the methods they refuse with their own Allow', async () => {
    const res = await fetch(`${url()}/api/v1/integrator`, { method: 'PUT', headers: { authorization: TEST_TOKEN } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, PATCH');
  });
});

describe('http edge › bodies over 1 MiB', () => {
  const twoMiB = 2 * 1024 * 1024;

  it('answers a chunked body over 1 MiB with the 413 envelope on the API, the public webhook address and the customer forms, and keeps the connection usable', async () => {
    for (const path of ['/api/v1/links', '/api/v1/links/acme-books', '/webhooks/paymongo/whk_x', '/pay/acme-books', '/pay/acme-open/pay']) {
      const method = path === '/api/v1/links/acme-books' ? 'PATCH' : 'POST';
      const body = Buffer.from(`{"note":"${'x'.repeat(twoMiB)}"}`);
      const { responses, reset } = await rawExchange(
        url(),
        [...chunkedRequest(method, path, body, { 'Content-Type': 'application/json', Authorization: TEST_TOKEN }), getRequest('/healthz')],
        { responses: 2 },
      );
      expect(reset, path).toBe(false);
      expect(
        responses.map((r) => r.status),
        path,
      ).toEqual([413, 200]);
      expect(envelopeOf(responses[0]!), path).toMatchObject({ status: 413, path, data: { status_code: 'ER.02.33' } });
    }
    expectNothingAtErrorLevel();
  });

  it('answers a declared Content-Length over 1 MiB with 413 before reading the body', async () => {
    for (const path of ['/api/v1/links', '/webhooks/paymongo/whk_x']) {
      const [head] = lengthRequest('POST', path, Buffer.alloc(twoMiB, 'x'), { 'Content-Type': 'application/json', Authorization: TEST_TOKEN });
      // Only the head is sent: the answer must not wait for the body.
      const { responses } = await rawExchange(url(), [head!], { timeoutMs: 5000 });
      expect(responses[0]?.status, path).toBe(413);
      expect(envelopeOf(responses[0]!).data.status_code).toBe('ER.02.33');
    }
    expectNothingAtErrorLevel();
  });

  it('answers the public webhook address with 413 past its own 256 KiB, chunked', async () => {
    const { responses } = await rawExchange(url(), chunkedJsonRequest('/webhooks/paymongo/whk_x', 300 * 1024));
    expect(responses[0]?.status).toBe(413);
    expect(envelopeOf(responses[0]!).messages).toEqual({ '(body)': ['must be at most 256 KiB'] });
  });

  it('answers a console form over 1 MiB with a 413 page that says so, chunked or declared', async () => {
    const form = Buffer.from(`email=a%40b.example&password=${'p'.repeat(twoMiB)}`);
    const headers = { 'Content-Type': 'application/x-www-form-urlencoded' };
    for (const request of [chunkedRequest('POST', '/console/sign-in', form, headers), lengthRequest('POST', '/console/sign-in', form, headers)]) {
      const { responses, reset } = await rawExchange(url(), [...request, getRequest('/healthz')], { responses: 2 });
      expect(reset).toBe(false);
      expect(responses.map((r) => r.status)).toEqual([413, 200]);
      expect(responses[0]!.headers['content-type']).toMatch(/^text\/html/);
      expect(responses[0]!.body).toContain('It is larger than the 1 MiB a form may be.');
    }
    expectNothingAtErrorLevel();
  });
});

describe('http edge › paths that cannot be decoded', () => {
  it('answers malformed percent-encoding with the 404 envelope, API or page, with or without a token, and logs nothing at error level', async () => {
    const deep = `/pay/%25${'25'.repeat(11)}41`; // %252525…41: more rounds of decoding than Astro makes
    for (const path of [
      '/%ZZ',
      '/pay/%E0%A4%A',
      '/pay/%',
      '/console/%ZZ',
      '/_astro/%ZZ',
      '/api/v1/transactions/%ZZ',
      '/api/v1/schedules/sch_%ED%A0%80',
      deep,
    ]) {
      for (const token of [undefined, TEST_TOKEN]) {
        const res = await fetch(url() + path, { headers: token ? { authorization: token } : {} });
        expect(res.status, path).toBe(404);
        const json = await res.json();
        expect(json, path).toMatchObject({ status: 404, path, data: { status_code: 'ER.02.34' } });
        expect(json.messages.path[0]).toMatch(/not a valid URL path/);
      }
    }
    expectNothingAtErrorLevel();
  });

  it('still serves a path whose escapes decode', async () => {
    expect((await fetch(`${url()}/pay/acme%2Dbooks`)).status).toBe(200);
    expect((await fetch(`${url()}/pay/%25ZZ`)).status).toBe(404);
  });
});

describe('http edge › behind a trusted proxy', () => {
  const proxied = useServedApp({ env: { PAYLINK_TRUST_PROXY: '1' } });
  const get = (path: string, proto: string) => fetch(proxied.server.url + path, { headers: { 'x-forwarded-proto': proto } });

  it('reads X-Forwarded-Proto from its last entry, the one the proxy appended, as it reads X-Forwarded-For', async () => {
    // The client wrote "https"; the proxy, which took the request over plain HTTP, appended "http".
    expect((await get('/healthz', 'https, http')).headers.get('strict-transport-security')).toBeNull();
    expect((await get('/healthz', 'http, https')).headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect((await get('/healthz', 'https')).headers.get('strict-transport-security')).not.toBeNull();
    // The console's cookies follow the same reading: __Host- and Secure only over HTTPS.
    const plain = (await get('/console/sign-in', 'https, http')).headers.getSetCookie().join('\n');
    expect(plain).toMatch(/^paylink_sign_in=/m);
    const secure = (await get('/console/sign-in', 'http, https')).headers.getSetCookie().join('\n');
    expect(secure).toMatch(/^__Host-paylink_sign_in=.*; Secure/m);
  });
});
