import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cardRegistrations, links, outboxEvents, schedules } from '../../../src/db/schema.ts';
import { payCheckout } from '../../../src/domain/checkout/pay.ts';
import { issueStaticTicket } from '../../../src/domain/checkout/sessions.ts';
import { SUBSCRIBER_LINK_SECONDS, subscriberToken } from '../../../src/domain/subscriptions/access.ts';
import { manageUrlFor } from '../../../src/domain/subscriptions/mail.ts';
import { call, defaultSeed, useServedApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';

/** The customer's subscriptions page: opened by a signed link, lists, cancels, downloads receipts, and e-mails a new link. */
let offsetMs = 0;
const seed = defaultSeed();
seed.integrators[0]!.links.push({
  slug: 'club',
  title: 'Book club',
  currency: 'PHP',
  amount: '300.00',
  labels: {},
  fields: {},
  active: true,
  subscription: { interval: 'month', every: 1, cancel: 'customer_chooses' },
});
const served = useServedApp({ now: () => new Date(Date.now() + offsetMs) }, seed);
const customer = { 'customer.first_name': 'Ana', 'customer.last_name': 'Reyes', 'customer.contact.email': 'Ana@Example.com' };
const card = { number: '4242424242424242', expiry: CARD_EXPIRY, cvc: '123', name: 'Ana Reyes' };

const get = async (path: string) => {
  const res = await fetch(served.server.url + path, { redirect: 'manual' });
  return { status: res.status, html: await res.text(), headers: res.headers };
};
const post = async (path: string, form: Record<string, string>) => {
  const res = await fetch(served.server.url + path, {
    method: 'POST',
    body: new URLSearchParams(form),
    redirect: 'manual',
    headers: { origin: served.server.url },
  });
  return { status: res.status, location: res.headers.get('location') ?? '' };
};
const subscribe = async () => {
  const { app } = served.t;
  const [link] = await app.db.select().from(links).where(eq(links.slug, 'club'));
  expect((await payCheckout(app, { slug: 'club', input: { session: issueStaticTicket(app, link!.id), fields: customer, card } })).status).toBe('succeeded');
  return link!;
};

describe('subscriptions › the customer page', () => {
  it('shows the subscription and its payment to the signed link, and the e-mails carry that link', async () => {
    const link = await subscribe();
    const { app } = served.t;
    const token = subscriberToken(app, link.integratorId, 'ana@example.com');
    const page = await get(`/subscriptions/manage?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Book club');
    expect(page.html).toContain('every month');
    expect(page.html).toContain('•••• 4242');
    expect(page.html.match(/data-testid="subscriber-payment"/g)).toHaveLength(1);
    const [schedule] = await app.db.select().from(schedules).where(eq(schedules.linkId, link.id));
    const url = await manageUrlFor(
      app,
      { type: 'schedule.charge_succeeded', integratorId: link.integratorId, emailTo: 'ana@example.com' },
      { scheduleReference: schedule!.id, transactionId: null },
    );
    expect(url).toMatch(/\/subscriptions\/manage\?token=/);
    const api = await call(served.server.url, 'GET', `/api/v1/schedules/${schedule!.id}`);
    expect(api.json.data.schedule).toMatchObject({ link: 'club', cycles_left: null, every: 1, trial_ends_at: null, cancel_at: null, status: 'active' });
    const listed = await call(served.server.url, 'GET', '/api/v1/schedules');
    expect(listed.json.data.items.find((i: { reference: string }) => i.reference === schedule!.id)).toMatchObject({ link: 'club' });
    const fil = await get(`/subscriptions/manage?token=${token}&lang=fil`);
    expect(fil.html).toContain('Ang iyong mga subscription');
  });

  it('downloads a receipt of the customer’s own payment only', async () => {
    const { app } = served.t;
    const [link] = await app.db.select().from(links).where(eq(links.slug, 'club'));
    const token = subscriberToken(app, link!.integratorId, 'ana@example.com');
    const page = await get(`/subscriptions/manage?token=${token}`);
    const href = page.html.match(/href="(\/subscriptions\/manage\/receipt[^"]+)"/)![1]!.replaceAll('&amp;', '&');
    const receipt = await get(href);
    expect(receipt.status).toBe(200);
    expect(receipt.headers.get('content-disposition')).toMatch(/attachment; filename="receipt-txn_/);
    expect(receipt.html).toContain('₱300.00');
    const other = subscriberToken(app, link!.integratorId, 'someone@example.com');
    expect((await get(href.replace(token, other))).status).toBe(404);
  });

  it('replaces the card: the next charges use the new one; a declined card changes nothing', async () => {
    const { app } = served.t;
    const [link] = await app.db.select().from(links).where(eq(links.slug, 'club'));
    const token = subscriberToken(app, link!.integratorId, 'ana@example.com');
    const [schedule] = await app.db.select().from(schedules).where(eq(schedules.linkId, link!.id));
    const reg = async () => (await app.db.select().from(cardRegistrations).where(eq(cardRegistrations.reference, schedule!.cardRegistrationReference)))[0]!;
    const declined = await post('/subscriptions/manage/card', {
      token,
      subscription: schedule!.id,
      number: '4000000000000002',
      expiry: CARD_EXPIRY,
      cvc: '123',
      name: 'Ana Reyes',
    });
    expect(declined.location).toContain('done=card_declined');
    expect((await get(declined.location)).html).toContain('ER.11.30');
    expect((await reg()).last4).toBe('4242');
    const saved = await post('/subscriptions/manage/card', {
      token,
      subscription: schedule!.id,
      number: '5555555555554444',
      expiry: CARD_EXPIRY,
      cvc: '123',
      name: 'Ana Reyes',
    });
    expect(saved.location).toContain('done=card_saved');
    const page = await get(saved.location);
    expect(page.html).toContain('OK.07.03');
    expect(page.html).toContain('•••• 4444');
    expect(await reg()).toMatchObject({ last4: '4444', status: 'active' });
    const bad = await post('/subscriptions/manage/card', { token, subscription: schedule!.id, number: '12', expiry: '13/99', cvc: 'x', name: '' });
    expect(bad.location).toContain('done=card_invalid');
  });

  it('cancels at the end of the period, or at once, as the customer chooses here', async () => {
    const { app } = served.t;
    const [link] = await app.db.select().from(links).where(eq(links.slug, 'club'));
    const token = subscriberToken(app, link!.integratorId, 'ana@example.com');
    const [schedule] = await app.db.select().from(schedules).where(eq(schedules.linkId, link!.id));
    const notMine = await post('/subscriptions/manage/cancel', {
      token: subscriberToken(app, link!.integratorId, 'x@example.com'),
      subscription: schedule!.id,
      mode: 'immediately',
    });
    expect(notMine.location).toContain('done=not_yours');
    expect((await get(notMine.location)).html).toContain('ER.07.01');
    const atEnd = await post('/subscriptions/manage/cancel', { token, subscription: schedule!.id, mode: 'period_end' });
    expect(atEnd.status).toBe(303);
    const ending = await get(atEnd.location);
    expect(ending.html).toContain('OK.07.01');
    expect(ending.html).toMatch(/Ends on/);
    expect((await app.db.select().from(schedules).where(eq(schedules.id, schedule!.id)))[0]).toMatchObject({ status: 'active' });
    const second = await subscribe();
    const [now] = (await app.db.select().from(schedules).where(eq(schedules.linkId, second.id))).filter((s) => s.id !== schedule!.id);
    const atOnce = await post('/subscriptions/manage/cancel', { token, subscription: now!.id, mode: 'immediately' });
    expect((await get(atOnce.location)).html).toContain('OK.07.00');
    expect((await app.db.select().from(schedules).where(eq(schedules.id, now!.id)))[0]).toMatchObject({ status: 'cancelled' });
  });

  it('a changed or expired link shows nothing; asking a new link answers the same for a known and an unknown e-mail', async () => {
    const { app } = served.t;
    const [link] = await app.db.select().from(links).where(eq(links.slug, 'club'));
    const token = subscriberToken(app, link!.integratorId, 'ana@example.com');
    const forged = await get(`/subscriptions/manage?token=${token.slice(0, -2)}xx`);
    expect(forged.status).toBe(403);
    expect(forged.html).toContain('ER.07.00');
    expect(forged.html).not.toContain('Book club');
    offsetMs = (SUBSCRIBER_LINK_SECONDS + 60) * 1000;
    const expired = await get(`/subscriptions/manage?token=${token}`);
    expect(expired.status).toBe(403);
    expect(expired.html).toContain('name="email"');
    const before = (await app.db.select().from(outboxEvents).where(eq(outboxEvents.type, 'subscription.page_link'))).length;
    const known = await post('/subscriptions/manage/request', { token, email: 'ana@example.com' });
    const unknown = await post('/subscriptions/manage/request', { link: 'club', email: 'nobody@example.com' });
    expect(known.status).toBe(303);
    expect(unknown.status).toBe(303);
    const knownPage = await get(known.location);
    const unknownPage = await get(unknown.location);
    const words = (html: string) => html.match(/<div class="notice" role="status">([^<]+)<\/div>/)?.[1];
    expect(words(knownPage.html)).toBe(words(unknownPage.html));
    expect(knownPage.html).toContain('OK.07.02');
    await expect.poll(async () => (await app.db.select().from(outboxEvents).where(eq(outboxEvents.type, 'subscription.page_link'))).length).toBe(before + 1);
    const [sent] = await app.db.select().from(outboxEvents).where(eq(outboxEvents.type, 'subscription.page_link'));
    expect(sent).toMatchObject({ emailTo: 'ana@example.com', callbackUrl: null });
    for (let i = 0; i < 3; i++) await post('/subscriptions/manage/request', { link: 'club', email: 'spam@example.com' });
    const limited = await post('/subscriptions/manage/request', { link: 'club', email: 'spam@example.com' });
    expect(limited.location).toContain('done=too_many');
    expect((await get(limited.location)).html).toContain('ER.07.02');
    offsetMs = 0;
  });
});
