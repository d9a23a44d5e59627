import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/crypto.ts';
import { checkoutSessions, integrators, links } from '../../../src/db/schema.ts';
import { applyProvisioning, ProvisioningError } from '../../../src/domain/integrators/provisioning.ts';
import { call, defaultSeed, TEST_TOKEN } from '../../support/app.ts';
import { acquirerSeed, useProviderApp } from '../../support/provider-app.ts';

/**
 * A link the merchant's acquirer cannot take (src/domain/links/acquirer-fit.ts), on PayMongo (PHP
 * only, at least PHP 20.00): refused where it is made (API, seed, dynamic POST) with the field and
 * the reason; a link made before the merchant changed acquirer can still be renamed or switched
 * off, and its page says it cannot be paid instead of showing a form; an amount the customer types
 * is held to PayMongo's minimum on the page.
 */
const provider = useProviderApp('paymongo', { integrator: 0 });
const api = (method: string, path: string, body?: unknown) => call(provider.server.url, method, path, { body, token: TEST_TOKEN });
const page = async (path: string) => {
  const res = await fetch(provider.server.url + path);
  return { status: res.status, html: await res.text() };
};

/** A link as it stood before the merchant moved to PayMongo: written straight to the table. */
async function linkFromBefore(slug: string, values: { currency: string; amountMinor?: bigint | null; maxAmountMinor?: bigint | null }) {
  const { app } = provider.t;
  const [acme] = await app.db.select({ id: integrators.id }).from(integrators).where(eq(integrators.name, 'Acme Books'));
  const now = app.now();
  await app.db.insert(links).values({
    id: newId('lnk'),
    slug,
    integratorId: acme!.id,
    title: `Old ${slug}`,
    labels: {},
    fields: {},
    active: true,
    createdAt: now,
    updatedAt: now,
    amountMinor: null,
    ...values,
  });
  app.linkCache.changed();
}

describe("links › the merchant's acquirer must take their money", () => {
  it('a free trial is refused on PayMongo, which cannot keep a card without charging it; nothing is written', async () => {
    const res = await api('POST', '/api/v1/links', {
      slug: 'fit-trial',
      title: 'Gym',
      currency: 'PHP',
      amount: '1500.00',
      subscription: { interval: 'month', trial_days: 7 },
    });
    expect(res.status, res.text).toBe(422);
    expect(res.json.messages['subscription.trial_days'][0]).toMatch(/not available with PayMongo/);
    expect((await api('GET', '/api/v1/links/fit-trial')).status).toBe(404);
  });

  it('the API refuses a currency PayMongo does not take and amounts under its minimum, naming each field; nothing is written', async () => {
    const currency = await api('POST', '/api/v1/links', { slug: 'fit-usd', title: 'Dollars', currency: 'USD', amount: '50.00' });
    expect(currency.status, currency.text).toBe(422);
    expect(currency.json.messages).toEqual({ currency: ['PayMongo does not take payments in USD; it takes only PHP'] });
    const amounts = await api('POST', '/api/v1/links', { slug: 'fit-small', title: 'Tip', currency: 'PHP', amount: '10.00' });
    expect(amounts.status).toBe(422);
    expect(amounts.json.messages).toEqual({ amount: ["must be at least 20.00 PHP, PayMongo's smallest charge"] });
    const range = await api('POST', '/api/v1/links', { slug: 'fit-range', title: 'Tip', currency: 'PHP', min_amount: '5.00', max_amount: '15.00' });
    expect(Object.keys(range.json.messages).sort()).toEqual(['max_amount', 'min_amount']);
    for (const slug of ['fit-usd', 'fit-small', 'fit-range']) expect((await api('GET', `/api/v1/links/${slug}`)).status).toBe(404);
    const fits = await api('POST', '/api/v1/links', { slug: 'fit-ok', title: 'Tip', currency: 'PHP', amount: '20.00' });
    expect(fits.status, fits.text).toBe(200);
    expect((await api('PATCH', '/api/v1/links/fit-ok', { amount: '19.99' })).json.messages).toEqual({
      amount: ["must be at least 20.00 PHP, PayMongo's smallest charge"],
    });
  });

  it('a link made before the change of acquirer: its page says it cannot be paid (409, no form); it can still be renamed and switched off, and fixed', async () => {
    await linkFromBefore('fit-old-usd', { currency: 'USD', amountMinor: 5000n });
    const shown = await page('/pay/fit-old-usd');
    expect(shown.status).toBe(409);
    expect(shown.html).toContain('This payment link cannot take payments right now');
    expect(shown.html).not.toContain('data-acquirer=');
    expect(shown.html).not.toContain('<form');
    // Renaming leaves the money alone, so it is not checked again; changing the money is.
    expect((await api('PATCH', '/api/v1/links/fit-old-usd', { title: 'Renamed' })).status).toBe(200);
    expect((await api('PATCH', '/api/v1/links/fit-old-usd', { amount: '60.00' })).json.messages.currency).toBeDefined();
    expect((await api('PATCH', '/api/v1/links/fit-old-usd', { active: false })).status).toBe(200);
    expect((await page('/pay/fit-old-usd')).status).toBe(404);
    const fixed = await api('PATCH', '/api/v1/links/fit-old-usd', { currency: 'PHP', amount: '2500.00', active: true });
    expect(fixed.status, fixed.text).toBe(200);
    const now = await page('/pay/fit-old-usd');
    expect(now.status).toBe(200);
    expect(now.html).toContain('data-acquirer="paymongo"');
  });

  it('an open link whose maximum is under the minimum cannot be paid; one with a lower minimum can, held to PayMongo’s', async () => {
    await linkFromBefore('fit-old-max', { currency: 'PHP', maxAmountMinor: 1500n });
    expect((await page('/pay/fit-old-max')).status).toBe(409);
    await linkFromBefore('fit-old-min', { currency: 'PHP' });
    await provider.t.app.db.update(links).set({ minAmountMinor: 500n }).where(eq(links.slug, 'fit-old-min'));
    provider.t.app.linkCache.changed();
    const open = await page('/pay/fit-old-min');
    expect(open.status).toBe(200);
    // The amount hint says PayMongo's minimum, not the link's lower one.
    expect(open.html).toContain('<p id="f-amount-hint" class="hint">In PHP, at least ₱20.00, written like 1,234.50</p>');
    expect(open.html).not.toContain('₱5.00');
  });

  it('the dynamic POST refuses a currency or amount PayMongo does not take, in the payment fields', async () => {
    const post = (payment: Record<string, unknown>) => call(provider.server.url, 'POST', '/pay/acme-open', { token: null, body: { key: TEST_TOKEN, payment } });
    const small = await post({ amount: '12.50' });
    expect(small.status, small.text).toBe(422);
    expect(small.json.messages).toEqual({ 'payment.amount': ["must be at least 20.00 PHP, PayMongo's smallest charge"] });
    const usd = await post({ amount: '30.00', currency: 'USD' });
    expect(usd.json.messages).toEqual({ 'payment.currency': ['PayMongo does not take payments in USD; it takes only PHP'] });
    const [before] = await provider.t.app.db.select({ n: checkoutSessions.id }).from(checkoutSessions).where(eq(checkoutSessions.currency, 'USD'));
    expect(before).toBeUndefined();
    const ok = await post({ amount: '20.00' });
    expect(ok.status, ok.text).toBe(200);
  });

  it('a checkout made before the change of acquirer, in a currency PayMongo does not take, says so instead of its form', async () => {
    const created = await call(provider.server.url, 'POST', '/pay/acme-open', { token: null, body: { key: TEST_TOKEN, payment: { amount: '25.00' } } });
    const token = new URL(created.json.link).pathname.split('/')[2]!;
    await provider.t.app.db.update(checkoutSessions).set({ currency: 'USD' }).where(eq(checkoutSessions.amountMinor, 2500n));
    provider.t.app.sessionCache.changed();
    const shown = await page(`/checkout/${token}`);
    expect(shown.status).toBe(409);
    expect(shown.html).toContain('data-testid="link-not_accepted"');
  });

  it('a seed whose link PayMongo cannot take does not apply, and says which link and field', async () => {
    const seed = defaultSeed();
    seed.integrators[0]!.acquirer = acquirerSeed('paymongo', provider.fake);
    seed.integrators[0]!.links.push({ slug: 'fit-seed', title: 'Tip', currency: 'PHP', amount: '10.00', labels: {}, fields: {}, active: true });
    const path = join(provider.t.dataDir, 'fit-seed.json');
    writeFileSync(path, JSON.stringify(seed));
    await expect(applyProvisioning(provider.t.app, path)).rejects.toThrow(ProvisioningError);
    await expect(applyProvisioning(provider.t.app, path)).rejects.toThrow(/fit-seed.*amount.*20\.00 PHP/);
    expect(await provider.t.app.db.select().from(links).where(eq(links.slug, 'fit-seed'))).toEqual([]);
  });
});
