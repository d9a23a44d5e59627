import { describe, expect, it } from 'vitest';
import { call, useServedApp } from '../../support/app.ts';

/** Subscription links by API: the plan is a link setting, checked by the links' one editor. */
const served = useServedApp();
const api = (method: string, path: string, body?: unknown) => call(served.server.url, method, path, { body });

describe('subscription links › by API', () => {
  it('creates a link with a plan, shows it, changes it and turns it back into a one-off link', async () => {
    const res = await api('POST', '/api/v1/links', {
      slug: 'gym-monthly',
      title: 'Gym membership',
      currency: 'PHP',
      amount: '1500.00',
      subscription: { interval: 'month', cycles: 12, cancel: 'customer_chooses' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.link.subscription).toEqual({ interval: 'month', every: 1, cycles: 12, cancel: 'customer_chooses' });
    const changed = await api('PATCH', '/api/v1/links/gym-monthly', { subscription: { interval: 'month', every: 3 } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json.data.link.subscription).toEqual({ interval: 'month', every: 3, cancel: 'period_end' });
    expect((await api('GET', '/api/v1/links/gym-monthly')).json.data.link.subscription).toEqual({ interval: 'month', every: 3, cancel: 'period_end' });
    const cleared = await api('PATCH', '/api/v1/links/gym-monthly', { subscription: null });
    expect(cleared.json.data.link.subscription).toBeNull();
  });

  it('refuses a plan without a fixed amount, and bad plan fields, naming each and creating nothing', async () => {
    const open = await api('POST', '/api/v1/links', { slug: 'sub-open', title: 'Open', currency: 'PHP', subscription: { interval: 'month' } });
    expect(open.status).toBe(422);
    expect(open.json.data.status_code).toBe('ER.02.30');
    expect(open.json.messages.amount[0]).toMatch(/subscription/);
    const bad = await api('POST', '/api/v1/links', {
      slug: 'sub-bad',
      title: 'Bad',
      currency: 'PHP',
      amount: '10',
      subscription: { interval: 'day', every: 0, trial_days: 1.5, cycles: 0, cancel: 'never', extra: 1 },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.messages).sort()).toEqual(
      expect.arrayContaining(['subscription.interval', 'subscription.every', 'subscription.trial_days', 'subscription.cycles', 'subscription.cancel']),
    );
    const tooOften = await api('POST', '/api/v1/links', {
      slug: 'sub-long',
      title: 'Long',
      currency: 'PHP',
      amount: '10',
      subscription: { interval: 'week', every: 53 },
    });
    expect(tooOften.status).toBe(422);
    expect(tooOften.json.messages['subscription.every']).toEqual(['must be at most 52 for weeks']);
    expect((await api('GET', '/api/v1/links/sub-open')).status).toBe(404);
    expect((await api('GET', '/api/v1/links/sub-long')).status).toBe(404);
  });
});
