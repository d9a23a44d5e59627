import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, provision, startTestServer, TEST_TOKEN, type TestApp } from '../../support/app.ts';

/**
 * The database goes away under a running server (here: its pool or embedded database is
 * closed, as when a process shuts down; on PostgreSQL a refused or lost connection is the same
 * case, tests/unit/db/unavailable.test.ts). Health checks and API calls say 503, never 500.
 */
let t: TestApp;
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  t = await createTestApp();
  await provision(t);
  server = await startTestServer(t.app);
  expect((await call(server.url, 'GET', '/healthz', { token: null })).status).toBe(200);
  await t.app.database.close();
});
afterAll(async () => {
  await server?.close();
  rmSync(t.dataDir, { recursive: true, force: true });
});

describe('database unavailable', () => {
  it('answers /healthz with 503 and status "unavailable"', async () => {
    const res = await call(server.url, 'GET', '/healthz', { token: null });
    expect(res.status).toBe(503);
    expect(res.json).toEqual({ status: 'unavailable', database: t.app.database.kind });
  });

  it('answers an API call with 503 ER.99.01, Retry-After and a request id, not 500', async () => {
    const res = await call(server.url, 'GET', '/api/v1/integrator');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.json).toMatchObject({
      status: 503,
      path: '/api/v1/integrator',
      data: { status_code: 'ER.99.01', request_id: res.headers.get('x-request-id') },
      messages: 'The service is temporarily unavailable; retry in a few seconds.',
    });
    const logged = t.logs.filter((line) => line.includes('database unavailable'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(res.json.data.request_id);
    expect(logged[0]).not.toContain(TEST_TOKEN);
  });
});
