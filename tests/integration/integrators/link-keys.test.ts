import { count, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { auditLog, checkoutSessions, integrators, refunds } from '../../../src/db/schema.ts';
import { rotateLinkKey } from '../../../src/domain/integrators/credentials.ts';
import { hashLinkKey } from '../../../src/domain/integrators/link-keys.ts';
import { applyProvisioning } from '../../../src/domain/integrators/provisioning.ts';
import { CONSOLE_USERS, call, createTestApp, defaultSeed, OTHER_TOKEN, provision, TEST_TOKEN, useServedApp } from '../../support/app.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';
import { createPayment } from '../../support/payments.ts';

/**
 * The publishable link key (src/domain/integrators/link-keys.ts): the dynamic link's `key`,
 * which creates checkouts and nothing else. The API token is still taken as `key`; every
 * /api/v1 route refuses the link key with 403 ER.01.30, without counting it as a failed
 * authentication. Against the built server, on PGlite and PostgreSQL.
 */
const ACME_LINK_KEY = 'pk_link_acme_seeded_0123456789abcdefghijklmnopqrstuv';
const seed = defaultSeed();
seed.integrators[0]!.link_key = ACME_LINK_KEY;

const clock = { now: new Date('2026-03-02T09:00:00Z') };
const advanceMinutes = (minutes: number) => {
  clock.now = new Date(clock.now.getTime() + minutes * 60_000);
};
const served = useServedApp({ now: () => clock.now }, seed);
const actor = { integratorId: null, userId: null, email: 'ops@example.com', ip: null, userAgent: null };

const dynamicLink = (key: unknown, slug = 'acme-books') =>
  call(served.server.url, 'POST', `/pay/${slug}`, { token: null, body: { key, payment: { description: 'Order 7' } } });
const sessionCount = async () => (await served.t.app.db.select({ n: count() }).from(checkoutSessions))[0]!.n;
const acme = async () => (await served.t.app.db.select().from(integrators).where(eq(integrators.email, 'billing@acme.example')))[0]!;
const linkKeyOf = async (token: string) => (await call(served.server.url, 'GET', '/api/v1/integrator', { token })).json.data.integrator.link_key as string;

describe('link key › dynamic link', () => {
  it('creates a checkout with the link key: 200 {link}', async () => {
    const before = await sessionCount();
    const res = await dynamicLink(ACME_LINK_KEY);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json)).toEqual(['link']);
    expect(res.json.link).toMatch(new RegExp(`^${served.server.url}/checkout/[A-Za-z0-9_-]{43}$`));
    expect(await sessionCount()).toBe(before + 1);
  });

  it('still creates a checkout with the full API token (clients written to the samples)', async () => {
    const res = await dynamicLink(TEST_TOKEN);
    expect(res.status, res.text).toBe(200);
    expect(res.json.link).toContain('/checkout/');
  });

  it("refuses a wrong key, an unknown link key and another integrator's link key with 401 ER.01.01, creating nothing", async () => {
    const otherLinkKey = await linkKeyOf(OTHER_TOKEN);
    expect(otherLinkKey).toMatch(/^pk_link_[A-Za-z0-9_-]{43}$/);
    const before = await sessionCount();
    for (const key of ['not-the-right-key-but-long-enough', 'pk_link_unknown_0123456789abcdefghijklmnopqrstuvwxyz', otherLinkKey]) {
      const res = await dynamicLink(key);
      expect(res.status, key).toBe(401);
      expect(res.json.data.status_code).toBe('ER.01.01');
      expect(res.json.messages).toEqual({ key: ["is neither the link key nor the API token of this link's owner"] });
    }
    // The other integrator's key works on its own link.
    expect((await dynamicLink(otherLinkKey, 'other-shop')).status).toBe(200);
    expect(await sessionCount()).toBe(before + 1);
  });
});

describe('link key › refused by the API', () => {
  it('refuses the link key on /api/v1/refund with 403 ER.01.30 and refunds nothing', async () => {
    const payment = await createPayment(served.t, { amount: '100.00' });
    const res = await call(served.server.url, 'POST', '/api/v1/refund', {
      token: ACME_LINK_KEY,
      body: { transaction_id: payment.id, notify_user: false, reason: 'Damaged box' },
    });
    expect(res.status, res.text).toBe(403);
    expect(res.json.data.status_code).toBe('ER.01.30');
    expect(res.json.message).toBe('Forbidden');
    expect(res.json.messages.authorization[0]).toContain('is a publishable link key');
    expect(await served.t.app.db.select().from(refunds).where(eq(refunds.paymentId, payment.id))).toEqual([]);
    // The token refunds it, so only the key was in the way.
    const refunded = await call(served.server.url, 'POST', '/api/v1/refund', {
      token: TEST_TOKEN,
      body: { transaction_id: payment.id, notify_user: false, reason: 'Damaged box' },
    });
    expect(refunded.json.data.status_code).toBe('OK.02.00');
    expect(await served.t.app.db.select().from(refunds).where(eq(refunds.paymentId, payment.id))).toHaveLength(1);
  });

  it('refuses it on every kind of /api/v1 route, as the bare header or Bearer', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/integrator'],
      ['GET', '/api/v1/links'],
      ['GET', '/api/v1/transactions'],
      ['POST', '/api/v1/webhook-secret/rotate'],
    ] as const) {
      for (const authorization of [ACME_LINK_KEY, `Bearer ${ACME_LINK_KEY}`]) {
        const res = await call(served.server.url, method, path, { token: null, headers: { authorization }, body: method === 'POST' ? {} : undefined });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.json.data.status_code).toBe('ER.01.30');
      }
    }
    expect((await served.t.app.db.select().from(auditLog)).filter((e) => e.action === 'webhook_secret.rotated')).toEqual([]);
  });

  it('counts a known link key as a request of its integrator, not a failed authentication; an unknown one fails as any wrong token', async () => {
    const limits = served.t.app.rateLimits;
    const failed = vi.spyOn(limits, 'authenticationFailed');
    const requests = vi.spyOn(limits, 'countApiRequest');
    try {
      await call(served.server.url, 'GET', '/api/v1/links', { token: ACME_LINK_KEY });
      expect(failed).not.toHaveBeenCalled();
      expect(requests).toHaveBeenCalledWith((await acme()).id);
      const unknown = await call(served.server.url, 'GET', '/api/v1/links', { token: 'pk_link_guessed_0123456789abcdefghijklmnopqrstuvwxyz' });
      expect(unknown.status).toBe(401);
      expect(unknown.json.data.status_code).toBe('ER.01.00');
      expect(failed).toHaveBeenCalledTimes(1);
    } finally {
      failed.mockRestore();
      requests.mockRestore();
    }
  });
});

describe('link key › issue and rotation', () => {
  it('gives GET /api/v1/integrator the link key, the same one every time', async () => {
    expect(await linkKeyOf(TEST_TOKEN)).toBe(ACME_LINK_KEY);
    const other = await linkKeyOf(OTHER_TOKEN);
    expect(await linkKeyOf(OTHER_TOKEN)).toBe(other);
    // Stored hashed and sealed, never as it is.
    const [row] = await served.t.app.db.select().from(integrators).where(eq(integrators.email, 'ops@other.example'));
    expect(row!.linkKeyHash).toBe(hashLinkKey(other));
    expect(JSON.stringify(row)).not.toContain(other);
  });

  it('issues a key on first read to an integrator made before link keys', async () => {
    const [row] = await served.t.app.db.select().from(integrators).where(eq(integrators.email, 'ops@other.example'));
    const old = await linkKeyOf(OTHER_TOKEN);
    await served.t.app.db.update(integrators).set({ linkKeyHash: null, linkKeyEnc: null }).where(eq(integrators.id, row!.id));
    served.t.app.tokenCache.changed();
    expect((await dynamicLink(old, 'other-shop')).status).toBe(401);
    const issued = await linkKeyOf(OTHER_TOKEN);
    expect(issued).toMatch(/^pk_link_[A-Za-z0-9_-]{43}$/);
    expect(issued).not.toBe(old);
    expect((await dynamicLink(issued, 'other-shop')).status).toBe(200);
    expect(await linkKeyOf(OTHER_TOKEN)).toBe(issued);
  });

  it('keeps the old key working through the overlap, then stops it; with no overlap at once', async () => {
    const id = (await acme()).id;
    const rotated = await rotateLinkKey(served.t.app, id, '1h', actor);
    expect(rotated.value).toMatch(/^pk_link_[A-Za-z0-9_-]{43}$/);
    expect(rotated.previousValidUntil).toEqual(new Date(clock.now.getTime() + 3_600_000));
    expect((await dynamicLink(rotated.value)).status).toBe(200);
    expect((await dynamicLink(ACME_LINK_KEY)).status).toBe(200);
    advanceMinutes(59);
    expect((await dynamicLink(ACME_LINK_KEY)).status).toBe(200);
    // The replaced key is still a known key: refused by the API as a link key, not as unknown.
    expect((await call(served.server.url, 'GET', '/api/v1/links', { token: ACME_LINK_KEY })).json.data.status_code).toBe('ER.01.30');
    advanceMinutes(2);
    expect((await dynamicLink(ACME_LINK_KEY)).json.data.status_code).toBe('ER.01.01');
    expect((await call(served.server.url, 'GET', '/api/v1/links', { token: ACME_LINK_KEY })).json.data.status_code).toBe('ER.01.00');
    expect(await linkKeyOf(TEST_TOKEN)).toBe(rotated.value);

    const next = await rotateLinkKey(served.t.app, id, 'none', actor);
    expect(next.previousValidUntil).toBeNull();
    expect((await dynamicLink(rotated.value)).status).toBe(401);
    expect((await dynamicLink(next.value)).status).toBe(200);
    // The API token was never touched by either rotation.
    expect((await call(served.server.url, 'GET', '/api/v1/integrator', { token: TEST_TOKEN })).status).toBe(200);

    // The same seed applied again at a restart leaves the rotated key in place.
    await provision(served.t, seed);
    expect((await dynamicLink(next.value)).status).toBe(200);
    expect((await dynamicLink(ACME_LINK_KEY)).status).toBe(401);
    // A seed naming a new key applies it.
    const changed = structuredClone(seed);
    changed.integrators[0]!.link_key = 'pk_link_acme_changed_0123456789abcdefghijklmnopqrstu';
    await provision(served.t, changed);
    expect((await dynamicLink(changed.integrators[0]!.link_key)).status).toBe(200);
    expect((await dynamicLink(next.value)).status).toBe(401);
  });
});

describe('link key › console', () => {
  it('shows the link key first on the Developers page, again on every visit, and rotates it', async () => {
    const owner = new ConsoleClient(served.server.url);
    expect((await owner.signIn(CONSOLE_USERS.acmeOwner.email, CONSOLE_USERS.acmeOwner.password)).status).toBe(303);
    const page = await owner.get('/console/developers');
    expect(page.status).toBe(200);
    const current = await linkKeyOf(TEST_TOKEN);
    expect(/data-testid="link-key">([^<]+)</.exec(page.html)?.[1]).toBe(current);
    const headings = [...page.html.matchAll(/<h2 id="([a-z-]+)-heading"/g)].map((m) => m[1]);
    expect(headings.slice(0, 2)).toEqual(['link-key', 'token']);
    expect((await owner.get('/console/developers')).html).toContain(current);

    const rotated = await owner.postConfirmed('/console/developers', { action: 'rotate-link-key', overlap: '24h' });
    expect(rotated.status, textOf(rotated.html)).toBe(200);
    const shown = /data-testid="link-key">([^<]+)</.exec(rotated.html)?.[1];
    expect(shown).toMatch(/^pk_link_[A-Za-z0-9_-]{43}$/);
    expect(shown).not.toBe(current);
    expect(textOf(rotated.html)).toContain('The old key keeps creating checkouts until');
    expect((await dynamicLink(shown)).status).toBe(200);
    expect((await dynamicLink(current)).status).toBe(200);
    const audit = await served.t.app.db.select().from(auditLog).where(eq(auditLog.actorEmail, CONSOLE_USERS.acmeOwner.email));
    expect(audit.map((e) => e.action)).toContain('link_key.rotated');
  });
});

describe('link key › demo credentials', () => {
  it('writes the link key to demo-credentials.json beside the token, and it opens the demo integrator', async () => {
    const t = await createTestApp();
    try {
      const result = await applyProvisioning(t.app, undefined);
      const credentials = result.demo!.credentials;
      expect(credentials.link_key).toMatch(/^pk_link_[A-Za-z0-9_-]{43}$/);
      expect(Object.keys(credentials).indexOf('link_key')).toBeLessThan(Object.keys(credentials).indexOf('token'));
      const owner = await t.app.tokenCache.findByLinkKey(credentials.link_key, t.app.now());
      expect(owner?.email).toBe('demo@paylink.localhost');
    } finally {
      await t.close();
    }
  });
});
