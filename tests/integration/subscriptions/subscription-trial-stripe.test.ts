import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { links } from '../../../src/db/schema.ts';
import { issueStaticTicket } from '../../../src/domain/checkout/sessions.ts';
import { call, OTHER_TOKEN } from '../../support/app.ts';
import { useProviderApp } from '../../support/provider-app.ts';

/**
 * A free trial on an acquirer that takes the card in its own form (Stripe): refused by the links
 * editor, and a trial link left from another acquirer neither shows a form nor starts a payment
 * (docs/subscriptions.md §2, "Trials").
 */
const provider = useProviderApp('stripe', { integrator: 1 });
const api = (method: string, path: string, body?: unknown) => call(provider.server.url, method, path, { token: OTHER_TOKEN, body });

describe('subscriptions › a free trial with Stripe', () => {
  it('the links editor refuses trial_days, naming the acquirer, and creates nothing', async () => {
    const res = await api('POST', '/api/v1/links', {
      slug: 'yoga-trial',
      title: 'Yoga',
      currency: 'USD',
      amount: '12.00',
      subscription: { interval: 'month', trial_days: 7 },
    });
    expect(res.status).toBe(422);
    expect(res.json.data.status_code).toBe('ER.02.30');
    expect(res.json.messages['subscription.trial_days'][0]).toMatch(/not available with Stripe/);
    expect((await api('GET', '/api/v1/links/yoga-trial')).status).toBe(404);
  });

  it('a trial link made before the merchant moved to Stripe is not payable: no form, no payment started', async () => {
    const made = await api('POST', '/api/v1/links', { slug: 'yoga-old', title: 'Yoga', currency: 'USD', amount: '12.00', subscription: { interval: 'month' } });
    expect(made.status, made.text).toBe(200);
    const { app } = provider.t;
    // As a link saved while the merchant was on the sandbox would be.
    const [link] = await app.db
      .update(links)
      .set({ subscription: { interval: 'month', every: 1, cancel: 'period_end', trial_days: 7 } })
      .where(eq(links.slug, 'yoga-old'))
      .returning();
    app.linkCache.changed();
    const page = await call(provider.server.url, 'GET', '/pay/yoga-old', { token: null });
    expect(page.status).toBe(409);
    expect(page.text).not.toContain('data-acquirer="stripe"');
    const started = await call(provider.server.url, 'POST', '/pay/yoga-old/provider', {
      token: null,
      body: { session: issueStaticTicket(app, link!.id), fields: { 'customer.contact.email': 'ana@example.com' } },
    });
    expect(started.json.data.status_code).toBe('ER.03.26');
    expect(provider.fake.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/payment_intents'))).toHaveLength(0);
  });
});
