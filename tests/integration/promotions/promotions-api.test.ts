import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { integrators, promotions } from '../../../src/db/schema.ts';
import { reactivateIntegrator, suspendIntegrator } from '../../../src/domain/integrators/suspension.ts';
import { redeemPromotion } from '../../../src/domain/promotions/redemptions.ts';
import { call, OTHER_TOKEN, useServedApp } from '../../support/app.ts';

/** Promotion codes by API: create, list, read, change and deactivate, on PGlite and PostgreSQL. */
const served = useServedApp();
const api = (method: string, path: string, body?: unknown, opts: { token?: string; headers?: Record<string, string> } = {}) =>
  call(served.server.url, method, path, { body, ...opts });
const linkId = async (slug: string, token?: string) => (await api('GET', `/api/v1/links/${slug}`, undefined, { token })).json.data.link.id as string;
const countOf = async () => (await served.t.app.db.select().from(promotions)).length;

describe('promotions › by API', () => {
  it('creates a percentage code for every link, in upper case, with OK.06.00', async () => {
    const res = await api('POST', '/api/v1/promotions', { code: 'launch10', discount: { kind: 'percent', percent: 10 }, max_redemptions: 100 });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.status_code).toBe('OK.06.00');
    expect(res.json.data.promotion).toMatchObject({
      code: 'LAUNCH10',
      discount: { kind: 'percent', percent: 10 },
      link_ids: null,
      valid_from: null,
      valid_until: null,
      max_redemptions: 100,
      redeemed: 0,
      once_per_email: false,
      active: true,
    });
    expect(res.json.data.promotion.id).toMatch(/^promo_/);
  });

  it('takes a fixed amount as a decimal string or number, stored in minor units and shown as a decimal', async () => {
    const books = await linkId('acme-books');
    const res = await api('POST', '/api/v1/promotions', {
      code: 'XMAS50',
      discount: { kind: 'fixed', amount: '50.00', currency: 'PHP' },
      link_ids: [books],
      valid_from: '2026-12-01T00:00:00+08:00',
      valid_until: '2027-01-01T00:00:00+08:00',
      once_per_email: true,
    });
    expect(res.status, res.text).toBe(200);
    const promo = res.json.data.promotion;
    expect(promo).toMatchObject({
      discount: { kind: 'fixed', amount: '50.00', currency: 'PHP' },
      link_ids: [books],
      valid_from: '2026-11-30T16:00:00.000Z',
      once_per_email: true,
    });
    const [row] = await served.t.app.db.select().from(promotions).where(eq(promotions.id, promo.id));
    expect(row!.discount).toEqual({ kind: 'fixed', minor: '5000', currency: 'PHP' });
    const number = await api('POST', '/api/v1/promotions', { code: 'TWELVE', discount: { kind: 'fixed', amount: 12.5, currency: 'PHP' } });
    expect(number.json.data.promotion.discount.amount).toBe('12.50');
    expect((await api('GET', `/api/v1/promotions/${promo.id}`)).json.data.promotion).toEqual(promo);
  });

  it('refuses a code the merchant has, whatever its case, with ER.06.00, and makes nothing', async () => {
    const before = await countOf();
    const res = await api('POST', '/api/v1/promotions', { code: ' Launch10 ', discount: { kind: 'percent', percent: 5 } });
    expect(res.status).toBe(409);
    expect(res.json.data.status_code).toBe('ER.06.00');
    expect(res.json.messages).toEqual({ code: ['exists already'] });
    expect(await countOf()).toBe(before);
    // Another merchant may have the same code.
    const other = await api('POST', '/api/v1/promotions', { code: 'LAUNCH10', discount: { kind: 'percent', percent: 5 } }, { token: OTHER_TOKEN });
    expect(other.status, other.text).toBe(200);
  });

  it.each([
    ['code', { code: 'x!', discount: { kind: 'percent', percent: 10 } }],
    ['discount.percent', { code: 'BADPCT', discount: { kind: 'percent', percent: 120 } }],
    ['discount.percent', { code: 'BADPCT', discount: { kind: 'percent', percent: 2.5 } }],
    ['discount.amount', { code: 'BADAMT', discount: { kind: 'fixed', amount: '50.005', currency: 'PHP' } }],
    ['discount.amount', { code: 'BADAMT', discount: { kind: 'fixed', amount: '-5', currency: 'PHP' } }],
    ['discount.currency', { code: 'BADCUR', discount: { kind: 'fixed', amount: '5', currency: 'XXX' } }],
    ['discount.kind', { code: 'BADKIND', discount: { kind: 'free' } }],
    ['link_ids', { code: 'BADLINK', discount: { kind: 'percent', percent: 10 }, link_ids: ['lnk_nope'] }],
    ['link_ids', { code: 'BADLINK', discount: { kind: 'percent', percent: 10 }, link_ids: [] }],
    ['valid_from', { code: 'BADFROM', discount: { kind: 'percent', percent: 10 }, valid_from: 'tomorrow' }],
    ['valid_until', { code: 'BADWIN', discount: { kind: 'percent', percent: 10 }, valid_from: '2027-01-02T00:00:00Z', valid_until: '2027-01-01T00:00:00Z' }],
    ['max_redemptions', { code: 'BADMAX', discount: { kind: 'percent', percent: 10 }, max_redemptions: 0 }],
    ['once_per_email', { code: 'BADONCE', discount: { kind: 'percent', percent: 10 }, once_per_email: 'yes' }],
    ['extra', { code: 'BADEXTRA', discount: { kind: 'percent', percent: 10 }, extra: 1 }],
  ])('refuses a bad %s with 422 ER.02.30 naming it, and makes nothing', async (field, body) => {
    const before = await countOf();
    const res = await api('POST', '/api/v1/promotions', body);
    expect(res.status, res.text).toBe(422);
    expect(res.json.data.status_code).toBe('ER.02.30');
    expect(Object.keys(res.json.messages)).toContain(field);
    expect(await countOf()).toBe(before);
  });

  it('refuses a link of another merchant, and a fixed discount on a link in another currency', async () => {
    const foreign = await linkId('other-shop', OTHER_TOKEN);
    const res = await api('POST', '/api/v1/promotions', { code: 'THEIRS', discount: { kind: 'percent', percent: 10 }, link_ids: [foreign] });
    expect(res.status).toBe(422);
    expect(res.json.messages.link_ids).toEqual([`${foreign} is not one of your links`]);
    const usd = await api('POST', '/api/v1/promotions', {
      code: 'USDOFF',
      discount: { kind: 'fixed', amount: '5.00', currency: 'USD' },
      link_ids: [await linkId('acme-books')],
    });
    expect(usd.status).toBe(422);
    expect(usd.json.messages.link_ids[0]).toMatch(/is in PHP; a discount in USD applies only to links in USD/);
  });

  it('replays a create sent again with the same Idempotency-Key, making one code', async () => {
    const headers = { 'idempotency-key': 'promo-create-1' };
    const body = { code: 'ONCEONLY', discount: { kind: 'percent', percent: 15 } };
    const first = await api('POST', '/api/v1/promotions', body, { headers });
    const again = await api('POST', '/api/v1/promotions', body, { headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json.data.promotion.id).toBe(first.json.data.promotion.id);
  });

  it('lists the codes newest first in pages, filtered by state, and never another merchant’s', async () => {
    const page = await api('GET', '/api/v1/promotions?limit=2');
    expect(page.status).toBe(200);
    expect(page.json.data.items).toHaveLength(2);
    expect(page.json.data.has_more).toBe(true);
    const next = await api('GET', `/api/v1/promotions?limit=100&starting_after=${page.json.data.next_cursor}`);
    const codes = [...page.json.data.items, ...next.json.data.items].map((p: { code: string }) => p.code);
    expect(codes.slice(0, 2)).toEqual(['ONCEONLY', 'TWELVE']);
    expect(codes).toContain('LAUNCH10');
    expect(new Set(codes).size).toBe(codes.length);
    const theirs = await api('GET', '/api/v1/promotions', undefined, { token: OTHER_TOKEN });
    expect(theirs.json.data.items.map((p: { code: string }) => p.code)).toEqual(['LAUNCH10']);
    expect((await api('GET', '/api/v1/promotions?active=maybe')).json.messages).toHaveProperty('active');
  });

  it('changes the window, maximum and links, clears them with null, and deactivates and reactivates with OK.06.01', async () => {
    const { id } = (await api('POST', '/api/v1/promotions', { code: 'CHANGEME', discount: { kind: 'percent', percent: 20 } })).json.data.promotion;
    const open = await linkId('acme-open');
    const changed = await api('PATCH', `/api/v1/promotions/${id}`, { max_redemptions: 5, link_ids: [open], valid_until: '2030-01-01T00:00:00Z' });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json.data.status_code).toBe('OK.06.01');
    expect(changed.json.data.promotion).toMatchObject({ max_redemptions: 5, link_ids: [open], valid_until: '2030-01-01T00:00:00.000Z', code: 'CHANGEME' });
    const cleared = await api('PATCH', `/api/v1/promotions/${id}`, { max_redemptions: null, link_ids: null, valid_until: null });
    expect(cleared.json.data.promotion).toMatchObject({ max_redemptions: null, link_ids: null, valid_until: null });
    expect((await api('PATCH', `/api/v1/promotions/${id}`, { active: false })).json.data.promotion.active).toBe(false);
    expect((await api('GET', '/api/v1/promotions?active=false')).json.data.items.map((p: { id: string }) => p.id)).toEqual([id]);
    expect((await api('PATCH', `/api/v1/promotions/${id}`, { active: true })).json.data.promotion.active).toBe(true);
  });

  it('refuses a maximum below what is redeemed with ER.06.20, and changes nothing', async () => {
    const { id } = (await api('POST', '/api/v1/promotions', { code: 'BUSY', discount: { kind: 'percent', percent: 10 }, max_redemptions: 10 })).json.data
      .promotion;
    for (const ref of ['cs_1', 'cs_2', 'cs_3']) {
      await served.t.app.db.transaction((tx) =>
        redeemPromotion(tx, { promotionId: id, reference: ref, oncePerEmail: false, discountMinor: 100n, currency: 'PHP', now: served.t.app.now() }),
      );
    }
    const res = await api('PATCH', `/api/v1/promotions/${id}`, { max_redemptions: 2, active: false });
    expect(res.status).toBe(409);
    expect(res.json.data.status_code).toBe('ER.06.20');
    expect(res.json.messages.max_redemptions).toEqual(['cannot be below the 3 redemptions already made']);
    const now = (await api('GET', `/api/v1/promotions/${id}`)).json.data.promotion;
    expect(now).toMatchObject({ max_redemptions: 10, redeemed: 3, active: true });
    expect((await api('PATCH', `/api/v1/promotions/${id}`, { max_redemptions: 3 })).json.data.promotion.max_redemptions).toBe(3);
  });

  it('refuses bad changes by field, an empty change, and another merchant’s or an unknown code as 404', async () => {
    const { id } = (
      await api('POST', '/api/v1/promotions', { code: 'PATCHBAD', discount: { kind: 'percent', percent: 10 }, valid_from: '2027-01-01T00:00:00Z' })
    ).json.data.promotion;
    const window = await api('PATCH', `/api/v1/promotions/${id}`, { valid_until: '2026-01-01T00:00:00Z' });
    expect(window.status).toBe(422);
    expect(window.json.messages).toEqual({ valid_until: ['must be after valid_from'] });
    for (const body of [{ code: 'NEW' }, { discount: { kind: 'percent', percent: 1 } }, { active: 'no' }, { max_redemptions: -1 }, {}]) {
      const res = await api('PATCH', `/api/v1/promotions/${id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await api('GET', `/api/v1/promotions/${id}`, undefined, { token: OTHER_TOKEN })).status).toBe(404);
    expect((await api('PATCH', `/api/v1/promotions/${id}`, { active: false }, { token: OTHER_TOKEN })).status).toBe(404);
    expect((await api('GET', '/api/v1/promotions/promo_missing')).json.data.status_code).toBe('ER.02.30');
    expect((await api('GET', `/api/v1/promotions/${id}`)).json.data.promotion.active).toBe(true);
  });

  it('while the integrator is suspended, refuses a new code (ER.01.40) but still lets it change or stop one', async () => {
    const shell = {
      operator: { id: null, email: 'admin command (test)', ip: null, userAgent: 'paylink shell' },
      activity: { integratorId: null, userId: null, email: 'admin command (test)', ip: null, userAgent: 'npm run admin' },
    };
    const [acme] = await served.t.app.db.select().from(integrators).where(eq(integrators.email, 'billing@acme.example'));
    const { id } = (await api('POST', '/api/v1/promotions', { code: 'BEFORESUSPEND', discount: { kind: 'percent', percent: 10 } })).json.data.promotion;
    await suspendIntegrator(served.t.app, acme!.id, 'KYC review', shell);
    try {
      const refused = await api('POST', '/api/v1/promotions', { code: 'DURINGSUSPEND', discount: { kind: 'percent', percent: 10 } });
      expect(refused.status).toBe(403);
      expect(refused.json.data.status_code).toBe('ER.01.40');
      expect((await api('PATCH', `/api/v1/promotions/${id}`, { active: false })).json.data.promotion.active).toBe(false);
      expect((await api('GET', '/api/v1/promotions')).status).toBe(200);
    } finally {
      await reactivateIntegrator(served.t.app, acme!.id, shell);
    }
  });
});
