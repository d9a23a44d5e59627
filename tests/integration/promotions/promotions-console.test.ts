import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, promotions } from '../../../src/db/schema.ts';
import { redeemPromotion } from '../../../src/domain/promotions/redemptions.ts';
import { CONSOLE_USERS, call, useServedApp } from '../../support/app.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';

/**
 * Promotion codes in the console: the list in words, the new-code form with its refusals beside
 * the fields, changes and deactivation asked first, each audited; staff see the codes and change
 * nothing; another integrator's code is 404. On PGlite and PostgreSQL.
 */
const served = useServedApp();
const { acmeOwner, acmeStaff, otherOwner } = CONSOLE_USERS;

async function signedIn(user: { email: string; password: string }) {
  const c = new ConsoleClient(served.server.url);
  const res = await c.signIn(user.email, user.password);
  expect(res.status, textOf(res.html)).toBe(303);
  return c;
}

const newForm = (over: Record<string, string> = {}): Record<string, string> => ({
  code: 'LAUNCH10',
  discount_kind: 'percent',
  percent: '10',
  amount: '',
  currency: 'PHP',
  links_scope: 'all',
  valid_from: '',
  valid_until: '',
  time_zone: 'Asia/Manila',
  max_redemptions: '100',
  ...over,
});
const rowOf = async (code: string) => (await served.t.app.db.select().from(promotions).where(eq(promotions.code, code)))[0];
const audits = async (action: string, target: string) =>
  (
    await served.t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.target, target)))
  ).length;
const linkId = async (slug: string) => (await call(served.server.url, 'GET', `/api/v1/links/${slug}`)).json.data.link.id as string;

describe('console › promotion codes', () => {
  it('creates a code from the form, audited, and lists it in words', async () => {
    const c = await signedIn(acmeOwner);
    const res = await c.post('/console/promotions/new', newForm());
    expect(res.status, textOf(res.html)).toBe(303);
    const row = await rowOf('LAUNCH10');
    expect(res.location).toBe(`/console/promotions/${row!.id}?done=created`);
    expect(row).toMatchObject({ discount: { kind: 'percent', percent: 10 }, maxRedemptions: 100, linkIds: null });
    expect(await audits('promotion.created', 'LAUNCH10')).toBe(1);
    const page = textOf((await c.get(res.location!)).html);
    expect(page).toContain('LAUNCH10 is made.');
    expect(page).toContain('Reference: OK.06.00');
    const books = await linkId('acme-books');
    const fixed = await c.post(
      '/console/promotions/new',
      newForm({
        code: 'xmas50',
        discount_kind: 'fixed',
        amount: '50.00',
        links_scope: 'chosen',
        link_ids: books,
        valid_from: '2026-12-01T00:00',
        valid_until: '2027-01-01T00:00',
        max_redemptions: '',
        once_per_email: 'on',
      }),
    );
    expect(fixed.status, textOf(fixed.html)).toBe(303);
    expect(await rowOf('XMAS50')).toMatchObject({
      discount: { kind: 'fixed', minor: '5000', currency: 'PHP' },
      linkIds: [books],
      validFrom: new Date('2026-11-30T16:00:00Z'),
      validUntil: new Date('2026-12-31T16:00:00Z'),
      maxRedemptions: null,
      oncePerEmail: true,
    });
    const list = textOf((await c.get('/console/promotions')).html);
    expect(list).toContain('XMAS50 ₱50.00 off Acme Books Dec 1, 2026, 12:00 AM – Jan 1, 2027, 12:00 AM 0 (no limit) · once per e-mail');
    expect(list).toContain('LAUNCH10 10 % off All links Always 0 of 100 Active');
  });

  it('refuses a code the merchant has with ER.06.00 beside the code, and makes nothing', async () => {
    const c = await signedIn(acmeOwner);
    const res = await c.post('/console/promotions/new', newForm({ code: 'launch10', percent: '5' }));
    expect(res.status).toBe(409);
    const text = textOf(res.html);
    expect(text).toContain('Code exists already');
    expect(text).toContain('Reference: ER.06.00');
    expect(res.html).toContain('value="launch10"');
    expect((await served.t.app.db.select().from(promotions)).length).toBe(2);
  });

  it.each([
    ['code', { code: 'x' }, 'Code must be 3 to 32'],
    ['percent', { percent: '150' }, 'Percent off'],
    ['amount', { discount_kind: 'fixed', amount: '5.555' }, 'Amount off PHP allows at most 2 decimal places'],
    ['currency', { discount_kind: 'fixed', amount: '5', currency: 'XYZ' }, 'Currency is not a currency paylink takes'],
    ['link_ids', { links_scope: 'chosen' }, 'Links must name at least one link'],
    ['valid_from', { valid_from: 'soon' }, 'Valid from must be a date and time'],
    ['valid_until', { valid_from: '2027-01-02T00:00', valid_until: '2027-01-01T00:00' }, 'Valid until must be after valid_from'],
    ['max_redemptions', { max_redemptions: '0' }, 'Most uses must be at least 1'],
    ['time_zone', { time_zone: 'Mars/Base' }, 'Time zone must be a time zone'],
  ])('refuses a bad %s beside its field, and makes nothing', async (_field, over, words) => {
    const c = await signedIn(acmeOwner);
    const res = await c.post('/console/promotions/new', newForm({ code: 'FRESH1', ...over }));
    expect(res.status).toBe(422);
    expect(textOf(res.html)).toContain(words);
    expect(await rowOf('FRESH1')).toBeUndefined();
  });

  it('answers text the database cannot store (a NUL) as a refusal or not found, never a failure', async () => {
    const c = await signedIn(acmeOwner);
    const res = await c.post('/console/promotions/new', newForm({ code: 'NULLINK', links_scope: 'chosen', link_ids: 'lnk_\u0000' }));
    expect(res.status).toBe(422);
    expect(await rowOf('NULLINK')).toBeUndefined();
    expect((await c.get('/console/promotions/promo_%00')).status).toBe(404);
    expect((await c.get('/console/promotions?starting_after=%00')).status).toBeLessThan(500);
  });

  it('saves a change after its confirm step, audited, and refuses a maximum below what is redeemed (ER.06.20)', async () => {
    const c = await signedIn(acmeOwner);
    const promo = (await rowOf('LAUNCH10'))!;
    const path = `/console/promotions/${promo.id}`;
    const asked = await c.post(path, { action: 'save', links_scope: 'all', valid_from: '', valid_until: '', time_zone: 'Asia/Manila', max_redemptions: '50' });
    expect(asked.status).toBe(200);
    expect(textOf(asked.html)).toContain('Save the changes to LAUNCH10?');
    expect((await rowOf('LAUNCH10'))!.maxRedemptions).toBe(100);
    const saved = await c.postConfirmed(path, {
      action: 'save',
      links_scope: 'all',
      valid_from: '',
      valid_until: '',
      time_zone: 'Asia/Manila',
      max_redemptions: '50',
    });
    expect(saved.status, textOf(saved.html)).toBe(303);
    expect((await rowOf('LAUNCH10'))!.maxRedemptions).toBe(50);
    expect(await audits('promotion.updated', 'LAUNCH10')).toBe(1);
    expect(textOf((await c.get(saved.location!)).html)).toContain('Reference: OK.06.01');
    for (const ref of ['cs_a', 'cs_b']) {
      await served.t.app.db.transaction((tx) =>
        redeemPromotion(tx, { promotionId: promo.id, reference: ref, oncePerEmail: false, discountMinor: 100n, currency: 'PHP', now: served.t.app.now() }),
      );
    }
    const below = await c.postConfirmed(path, {
      action: 'save',
      links_scope: 'all',
      valid_from: '',
      valid_until: '',
      time_zone: 'Asia/Manila',
      max_redemptions: '1',
    });
    expect(below.status).toBe(409);
    expect(textOf(below.html)).toContain('Most uses cannot be below the 2 redemptions already made');
    expect(textOf(below.html)).toContain('Reference: ER.06.20');
    expect((await rowOf('LAUNCH10'))!.maxRedemptions).toBe(50);
  });

  it('deactivates after its confirm step and reactivates, audited', async () => {
    const c = await signedIn(acmeOwner);
    const promo = (await rowOf('XMAS50'))!;
    const path = `/console/promotions/${promo.id}`;
    const asked = await c.post(path, { action: 'deactivate' });
    expect(textOf(asked.html)).toContain('Deactivate XMAS50?');
    expect((await rowOf('XMAS50'))!.active).toBe(true);
    const done = await c.postConfirmed(path, { action: 'deactivate' });
    expect(done.location).toBe(`${path}?done=deactivated`);
    expect((await rowOf('XMAS50'))!.active).toBe(false);
    expect(await audits('promotion.deactivated', 'XMAS50')).toBe(1);
    expect(textOf((await c.get(done.location!)).html)).toContain('XMAS50 is deactivated');
    await c.post(path, { action: 'reactivate' });
    expect((await rowOf('XMAS50'))!.active).toBe(true);
  });

  it('shows staff the codes but no way to change them; their posts and another integrator’s owner change nothing', async () => {
    const staff = await signedIn(acmeStaff);
    const promo = (await rowOf('LAUNCH10'))!;
    const list = await staff.get('/console/promotions');
    expect(textOf(list.html)).toContain('LAUNCH10');
    expect(list.html).not.toContain('/console/promotions/new');
    expect((await staff.get('/console/promotions/new')).status).toBe(404);
    const page = await staff.get(`/console/promotions/${promo.id}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('Deactivate code');
    expect((await staff.post(`/console/promotions/${promo.id}`, { action: 'deactivate', confirmed: 'yes' })).status).toBe(404);
    expect((await staff.post('/console/promotions/new', newForm({ code: 'STAFFCODE' }), { from: '/console/promotions' })).status).toBe(404);
    const other = await signedIn(otherOwner);
    expect((await other.get(`/console/promotions/${promo.id}`)).status).toBe(404);
    expect((await other.post(`/console/promotions/${promo.id}`, { action: 'deactivate', confirmed: 'yes' }, { from: '/console/promotions' })).status).toBe(404);
    expect((await rowOf('LAUNCH10'))!.active).toBe(true);
    expect(await rowOf('STAFFCODE')).toBeUndefined();
  });
});
