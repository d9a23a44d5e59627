import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { integrators } from '../../../src/db/schema.ts';
import { rotateApiToken } from '../../../src/domain/integrators/credentials.ts';
import { hashToken } from '../../../src/domain/integrators/service.ts';
import { TokenCache } from '../../../src/domain/integrators/token-cache.ts';
import { call, TEST_TOKEN, useServedApp } from '../../support/app.ts';

/**
 * API tokens are kept in memory after a request used them (src/domain/integrators/token-cache.ts), so
 * authentication costs no round trip. What must hold: a token that stopped working is refused at
 * once in this process, and soon after (NOTIFY) when another process changed it; a replaced token
 * stops at the end of its overlap without any write; unknown tokens are never kept.
 */
const served = useServedApp();
const actor = { integratorId: null, userId: null, email: 'ops@example.com', ip: null, userAgent: null };
const ping = (token: string) => call(served.server.url, 'GET', '/api/v1/integrator', { token });

async function waitFor(check: () => Promise<boolean>, ms = 3_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

async function acmeId() {
  const [row] = await served.t.app.db
    .select({ id: integrators.id })
    .from(integrators)
    .where(eq(integrators.tokenHash, hashToken(TEST_TOKEN)));
  return row!.id;
}

describe('API tokens kept in memory', () => {
  it('reads a token once, then from memory; unknown tokens are not kept', async () => {
    const tokens = new TokenCache(served.t.app.db, () => 0);
    const now = new Date();
    const first = await tokens.find(TEST_TOKEN, now);
    expect(first?.tokenHash).toBe(hashToken(TEST_TOKEN));
    expect(await tokens.find(TEST_TOKEN, now)).toBe(first);
    expect(await tokens.find('x'.repeat(40), now)).toBeUndefined();
    expect(await tokens.find('short', now)).toBeUndefined();
    tokens.changed();
    const again = await tokens.find(TEST_TOKEN, now);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it('refuses a rotated token at once in this process (overlap none), and takes the new one', async () => {
    const id = await acmeId();
    expect((await ping(TEST_TOKEN)).status).toBe(200);
    const rotated = await rotateApiToken(served.t.app, id, 'none', actor);
    expect(rotated.previousValidUntil).toBeNull();
    const old = await ping(TEST_TOKEN);
    expect(old.status).toBe(401);
    expect(old.json.data.status_code).toBe('ER.01.00');
    expect((await ping(rotated.value)).status).toBe(200);
    // Put the test token back for the tests below (a write anywhere: NOTIFY empties the memory).
    await served.t.app.db
      .update(integrators)
      .set({ tokenHash: hashToken(TEST_TOKEN) })
      .where(eq(integrators.id, id));
    expect(await waitFor(async () => (await ping(TEST_TOKEN)).status === 200)).toBe(true);
    // The rotated token stays kept until the write's NOTIFY arrives (TEST_TOKEN answered at once: a
    // refused token is never kept, so it was read from the database). Asking right away raced it.
    expect(await waitFor(async () => (await ping(rotated.value)).status === 401)).toBe(true);
  });

  it('forgets a token another process changed (NOTIFY paylink_links)', async () => {
    const id = await acmeId();
    expect((await ping(TEST_TOKEN)).status).toBe(200);
    // As another process would: straight to the database, not through this process's services.
    await served.t.app.db
      .update(integrators)
      .set({ tokenHash: hashToken('another_token_0123456789abcdef') })
      .where(eq(integrators.id, id));
    expect(await waitFor(async () => (await ping(TEST_TOKEN)).status === 401)).toBe(true);
    await served.t.app.db
      .update(integrators)
      .set({ tokenHash: hashToken(TEST_TOKEN) })
      .where(eq(integrators.id, id));
    expect(await waitFor(async () => (await ping(TEST_TOKEN)).status === 200)).toBe(true);
  });

  it('stops a replaced token at the end of its overlap, though it is kept', async () => {
    const id = await acmeId();
    const rotated = await rotateApiToken(served.t.app, id, '1h', actor);
    const end = rotated.previousValidUntil!;
    const tokens = new TokenCache(served.t.app.db, () => 0);
    const before = new Date(end.getTime() - 1_000);
    expect((await tokens.find(TEST_TOKEN, before))?.id).toBe(id);
    expect((await tokens.find(TEST_TOKEN, before))?.id).toBe(id);
    expect(await tokens.find(TEST_TOKEN, new Date(end.getTime() + 1))).toBeUndefined();
    expect((await tokens.find(rotated.value, new Date(end.getTime() + 1)))?.id).toBe(id);
  });
});
