import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { integrators, links } from '../../../src/db/schema.ts';
import { applyProvisioning } from '../../../src/domain/integrators/provisioning.ts';
import { call, defaultSeed, OTHER_TOKEN } from '../../support/app.ts';
import { acquirerSeed, useProviderApp } from '../../support/provider-app.ts';

/**
 * The payment methods a link offers must be ones the merchant's acquirer takes: on Stripe (cards,
 * with the wallets its Payment Element shows) a local method is refused where the link, the
 * account's defaults or the seed name it, with the method and what Stripe takes.
 */
const provider = useProviderApp('stripe', { integrator: 1 });
const api = (method: string, path: string, body?: unknown) => call(provider.server.url, method, path, { body, token: OTHER_TOKEN });

describe("links › payment methods the merchant's acquirer takes", () => {
  it('the API refuses a method Stripe does not take, naming it and what Stripe takes; nothing is written', async () => {
    const res = await api('POST', '/api/v1/links', { slug: 'fit-gcash', title: 'Tip', currency: 'USD', amount: '50.00', payment_methods: ['gcash', 'card'] });
    expect(res.status, res.text).toBe(422);
    expect(res.json.data.status_code).toBe('ER.02.30');
    expect(res.json.messages).toEqual({ payment_methods: ['Stripe does not take GCash; it takes Card'] });
    expect((await api('GET', '/api/v1/links/fit-gcash')).status).toBe(404);
    const card = await api('POST', '/api/v1/links', { slug: 'fit-card', title: 'Tip', currency: 'USD', amount: '50.00', payment_methods: ['card'] });
    expect(card.status, card.text).toBe(200);
    expect((await api('PATCH', '/api/v1/links/fit-card', { payment_methods: ['card', 'qrph'] })).json.messages).toEqual({
      payment_methods: ['Stripe does not take QR Ph; it takes Card'],
    });
    expect((await api('GET', '/api/v1/links/fit-card')).json.data.link.payment_methods).toEqual(['card']);
  });

  it('refuses default methods Stripe does not take, and a link naming none while the defaults leave nothing (ER.03.13)', async () => {
    const refused = await api('PATCH', '/api/v1/integrator', { default_payment_methods: ['qrph'] });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.json.messages).toEqual({ default_payment_methods: ['Stripe does not take QR Ph; it takes Card'] });
    // Defaults chosen under the sandbox, before the move to Stripe: written as they stood.
    await provider.t.app.db
      .update(integrators)
      .set({ defaultPaymentMethods: ['gcash'] })
      .where(eq(integrators.name, 'Other Shop'));
    const none = await api('POST', '/api/v1/links', { slug: 'fit-none', title: 'Tip', currency: 'USD', amount: '50.00' });
    expect(none.status, none.text).toBe(422);
    expect(none.json.data.status_code).toBe('ER.03.13');
    expect(none.json.messages.payment_methods[0]).toContain("none of your account's default payment methods (GCash) is one Stripe takes");
    expect((await api('GET', '/api/v1/links/fit-none')).status).toBe(404);
    // Naming its own methods, the link can be made; other links are left as they are.
    expect((await api('POST', '/api/v1/links', { slug: 'fit-none', title: 'Tip', currency: 'USD', amount: '50.00', payment_methods: ['card'] })).status).toBe(
      200,
    );
    await provider.t.app.db.update(integrators).set({ defaultPaymentMethods: null }).where(eq(integrators.name, 'Other Shop'));
  });

  it('a seed whose link or defaults name a method Stripe does not take does not apply, and says where', async () => {
    const seed = defaultSeed();
    seed.integrators[1]!.acquirer = acquirerSeed('stripe', provider.fake);
    seed.integrators[1]!.links.push({
      slug: 'fit-seed-qr',
      title: 'Tip',
      currency: 'USD',
      amount: '50.00',
      labels: {},
      fields: {},
      active: true,
      payment_methods: ['qrph'],
    });
    const path = join(provider.t.dataDir, 'fit-seed-qr.json');
    writeFileSync(path, JSON.stringify(seed));
    await expect(applyProvisioning(provider.t.app, path)).rejects.toThrow(/fit-seed-qr.*payment_methods: Stripe does not take QR Ph/);
    expect(await provider.t.app.db.select().from(links).where(eq(links.slug, 'fit-seed-qr'))).toEqual([]);
    seed.integrators[1]!.links.pop();
    seed.integrators[1]!.default_payment_methods = ['billease'];
    writeFileSync(path, JSON.stringify(seed));
    await expect(applyProvisioning(provider.t.app, path)).rejects.toThrow(/default_payment_methods: Stripe does not take BillEase/);
  });
});
