import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cardRegistrations, checkoutSessions, links, outboxEvents, payments, sandboxCharges, scheduleRuns, schedules } from '../../../src/db/schema.ts';
import { issueStaticTicket } from '../../../src/domain/checkout/sessions.ts';
import { renderEmail } from '../../../src/domain/notifications/email/templates.ts';
import { runSchedulerTick } from '../../../src/domain/schedules/tick.ts';
import { manageUrlFor } from '../../../src/domain/subscriptions/mail.ts';
import { CONSOLE_USERS, call, useServedApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';
import { testClock } from '../../support/schedules.ts';

/**
 * A free trial started on a subscription link's page (docs/subscriptions.md §2, "Trials"), over
 * HTTP on the sandbox: the card is verified and kept, nothing is charged, the schedule's first run
 * is the trial's end, the page confirms it and the customer is e-mailed; a declined card starts
 * nothing; a double submit starts one subscription.
 */
const clock = testClock('2026-11-26T09:15:00Z');
const served = useServedApp({ now: clock.now });
const api = (method: string, path: string, body?: unknown) => call(served.server.url, method, path, { body });
const customer = (email: string) => ({ 'customer.first_name': 'Ana', 'customer.last_name': 'Reyes', 'customer.contact.email': email });
const card = (number = '4242424242424242') => ({ number, expiry: CARD_EXPIRY, cvc: '123', name: 'Ana Reyes' });

const linkOf = async (slug: string) => (await served.t.app.db.select().from(links).where(eq(links.slug, slug)))[0]!;
const submit = async (slug: string, email: string, number?: string, lang = 'en') => {
  const link = await linkOf(slug);
  const session = issueStaticTicket(served.t.app, link.id);
  const res = await call(served.server.url, 'POST', `/pay/${slug}/pay`, {
    token: null,
    headers: { 'accept-language': lang },
    body: { session, fields: customer(email), card: card(number) },
  });
  return { ...res, session };
};
const schedulesOf = async (slug: string) =>
  served.t.app.db
    .select()
    .from(schedules)
    .where(eq(schedules.linkId, (await linkOf(slug)).id));

describe('subscriptions › a free trial from the payment page', () => {
  it('the links API takes trial_days 1–365 and the page says what happens, cards only, no Pay button', async () => {
    const made = await api('POST', '/api/v1/links', {
      slug: 'gym-trial',
      title: 'Gym membership',
      currency: 'PHP',
      amount: '1500.00',
      payment_methods: ['card', 'gcash'],
      subscription: { interval: 'month', trial_days: 14, cycles: 12 },
    });
    expect(made.status, made.text).toBe(200);
    expect(made.json.data.link.subscription).toMatchObject({ interval: 'month', trial_days: 14, cycles: 12 });
    for (const days of [0, 366])
      expect((await api('PATCH', '/api/v1/links/gym-trial', { subscription: { interval: 'month', trial_days: days } })).status).toBe(422);
    const noCard = await api('PATCH', '/api/v1/links/gym-trial', { payment_methods: ['gcash'] });
    expect(noCard.status).toBe(422);
    expect(noCard.json.messages.payment_methods[0]).toMatch(/card/);
    const tip = await api('PATCH', '/api/v1/links/gym-trial', { tip: { presets: { kind: 'percent', values: [10] } } });
    expect(tip.status).toBe(422);
    const page = await call(served.server.url, 'GET', '/pay/gym-trial', { token: null });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Free for 14 days, then ₱1,500.00 every month');
    expect(page.text).toContain('Start free trial');
    expect(page.text).not.toContain('Pay ₱1,500.00');
    // A pay-once method would start a trial with nothing to charge at its end: only the card form.
    expect(page.text).not.toContain('data-method="gcash"');
    const fil = await call(served.server.url, 'GET', '/pay/gym-trial?lang=fil', { token: null });
    expect(fil.text).toContain('Libre sa loob ng 14 araw, pagkatapos ay ₱1,500.00 bawat buwan');
    const es = await call(served.server.url, 'GET', '/pay/gym-trial?lang=es', { token: null });
    expect(es.text).toContain('Gratis durante 14 días, luego');
    // Nor can the method be started by a crafted post.
    const method = await call(served.server.url, 'POST', '/pay/gym-trial/method', {
      token: null,
      body: { session: issueStaticTicket(served.t.app, (await linkOf('gym-trial')).id), method: 'gcash', fields: customer('x@example.com') },
    });
    expect(method.json.data.status_code).not.toBe('OK.03.01');
  });

  it('starts the trial: card verified and kept, no payment, no charge; first charge at the trial end', async () => {
    const { app } = served.t;
    const chargesBefore = (await app.db.select().from(sandboxCharges)).length;
    const res = await submit('gym-trial', 'ana@example.com');
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.status_code).toBe('OK.07.04');
    expect(res.json.data.first_charge_at).toBe('2026-12-10T09:15:00.000Z');
    const [schedule] = await schedulesOf('gym-trial');
    expect(schedule).toMatchObject({ status: 'active', cyclesLeft: 12, amountMinor: 150000n, notifyUser: true });
    expect(schedule!.nextRunAt?.toISOString()).toBe('2026-12-10T09:15:00.000Z');
    // The integrator sees the trial through the API: it ends at the first charge.
    const api = await call(served.server.url, 'GET', `/api/v1/schedules/${schedule!.id}`);
    expect(api.json.data.schedule).toMatchObject({
      link: 'gym-trial',
      trial_ends_at: '2026-12-10T09:15:00.000+00:00',
      next_run_at: '2026-12-10T09:15:00.000+00:00',
    });
    const [registration] = await app.db.select().from(cardRegistrations).where(eq(cardRegistrations.reference, schedule!.cardRegistrationReference));
    expect(registration).toMatchObject({ status: 'active', collection: 'saved_card', last4: '4242', customerEmail: 'ana@example.com' });
    expect(await app.db.select().from(payments).where(eq(payments.linkId, schedule!.linkId!))).toHaveLength(0);
    expect((await app.db.select().from(sandboxCharges)).length).toBe(chargesBefore);
    // The confirmation page, in the customer's language.
    const page = await call(served.server.url, 'GET', new URL(res.json.data.redirect_url, served.server.url).pathname, { token: null });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Your free trial has started');
    expect(page.text).toContain('The first payment of ₱1,500.00 is on Dec 10, 2026.');
    expect(page.text).toContain('•••• 4242');
    expect(page.text).toContain('are on their way to ana@example.com');
    const es = await call(served.server.url, 'GET', `${new URL(res.json.data.redirect_url, served.server.url).pathname}?lang=es`, { token: null });
    expect(es.text).toContain('Tu prueba gratuita ha comenzado');
    // A replay of the form answers "already done" and starts nothing more.
    const again = await call(served.server.url, 'POST', '/pay/gym-trial/pay', {
      token: null,
      body: { session: res.session, fields: customer('ana@example.com'), card: card() },
    });
    expect(again.json.data.status_code).toBe('ER.03.22');
    expect(await schedulesOf('gym-trial')).toHaveLength(1);
    // The customer's e-mail: the trial's start, with the first payment's day and their subscriptions page.
    const [created] = await app.db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.type, 'schedule.created'), eq(outboxEvents.emailTo, 'ana@example.com')));
    expect(created?.emailView?.trialEndsAt).toBe('2026-12-10T09:15:00.000Z');
    const manageUrl = await manageUrlFor(app, created!, created!.emailView!);
    expect(manageUrl).toMatch(/\/subscriptions\/manage\?token=/);
    const mail = renderEmail({
      type: 'schedule.created',
      view: created!.emailView!,
      createdAt: created!.createdAt,
      merchant: { name: 'Acme', locale: 'en' },
      manageUrl,
    });
    expect(mail.subject).toBe('Your free trial has started — Acme');
    expect(mail.text).toContain('Nothing has been charged');
    expect(mail.text).toMatch(/First payment:\s+Dec 10, 2026/);
    expect(mail.text).toContain(manageUrl!);
  });

  it('the scheduler makes the first charge at the trial end', async () => {
    const { app } = served.t;
    const [schedule] = await schedulesOf('gym-trial');
    clock.set('2026-12-10T09:14:00Z');
    await runSchedulerTick(app);
    expect(await app.db.select().from(scheduleRuns).where(eq(scheduleRuns.scheduleId, schedule!.id))).toHaveLength(0);
    clock.set('2026-12-10T09:15:01Z');
    await runSchedulerTick(app);
    const runs = await app.db.select().from(scheduleRuns).where(eq(scheduleRuns.scheduleId, schedule!.id));
    expect(runs.map((r) => r.status)).toEqual(['succeeded']);
    const [after] = await app.db.select().from(schedules).where(eq(schedules.id, schedule!.id));
    expect(after).toMatchObject({ cyclesLeft: 11 });
    expect(after!.nextRunAt?.toISOString()).toBe('2027-01-10T09:15:00.000Z');
    const paid = await app.db.select().from(payments).where(eq(payments.cardRegistrationReference, schedule!.cardRegistrationReference));
    expect(paid.map((p) => [p.status, p.amountMinor])).toEqual([['succeeded', 150000n]]);
  });

  it('a declined card shows the decline and starts nothing', async () => {
    const { app } = served.t;
    const before = (await schedulesOf('gym-trial')).length;
    const res = await submit('gym-trial', 'ben@example.com', '4000000000009995');
    expect(res.status).toBe(200);
    expect(res.json.data.status_code).toBe('ER.07.03');
    expect(res.json.data.decline_code).toBe('insufficient_funds');
    expect(res.json.messages.card[0]).toMatch(/funds/i);
    expect(await schedulesOf('gym-trial')).toHaveLength(before);
    expect(await app.db.select().from(cardRegistrations).where(eq(cardRegistrations.customerEmail, 'ben@example.com'))).toHaveLength(0);
    const [session] = await app.db.select().from(checkoutSessions).where(eq(checkoutSessions.attempts, 1)).orderBy(checkoutSessions.createdAt);
    expect(session).toBeDefined();
    // The same page takes another card.
    const retry = await call(served.server.url, 'POST', '/pay/gym-trial/pay', {
      token: null,
      body: { session: res.session, fields: customer('ben@example.com'), card: card() },
    });
    expect(retry.json.data.status_code).toBe('OK.07.04');
    expect(await schedulesOf('gym-trial')).toHaveLength(before + 1);
  });

  it('the console: the editor sets a trial; the schedules show it with no payment yet', async () => {
    clock.set('2026-12-20T12:00:00Z');
    const owner = new ConsoleClient(served.server.url);
    expect((await owner.signIn(CONSOLE_USERS.acmeOwner.email, CONSOLE_USERS.acmeOwner.password)).status).toBe(303);
    const f = new FormData();
    const fields = { title: 'Pilates', amount_mode: 'fixed', amount: '900.00', currency: 'PHP', active: 'on', slug: 'pilates' };
    for (const [k, v] of Object.entries(fields)) f.set(k, v);
    f.set('logo', new File([], '', { type: 'application/octet-stream' }));
    for (const [k, v] of Object.entries({
      'subscription.on': 'on',
      'subscription.interval': 'week',
      'subscription.every': '1',
      'subscription.cancel': 'immediately',
    }))
      f.set(k, v);
    f.set('subscription.trial_days', '400');
    const refused = await owner.postMultipart('/console/links/new', f);
    expect(refused.status).toBe(422);
    expect(textOf(refused.html)).toContain('at most 365');
    f.set('subscription.trial_days', '7');
    const saved = await owner.postMultipart('/console/links/new', f);
    expect(saved.status, textOf(saved.html)).toBe(303);
    expect((await linkOf('pilates')).subscription).toMatchObject({ interval: 'week', trial_days: 7 });
    expect((await owner.get('/console/links/pilates')).html).toMatch(/name="subscription.trial_days"[^>]*value="7"/);
    expect((await submit('pilates', 'dee@example.com')).json.data.status_code).toBe('OK.07.04');
    const [schedule] = await schedulesOf('pilates');
    const list = await owner.get('/console/schedules');
    expect(textOf(list.html)).toContain('Free trial until');
    const one = await owner.get(`/console/schedules/${schedule!.id}`);
    expect(textOf(one.html)).toContain('Free trial until 2026-12-27 12:00:00 UTC: no payment yet');
  });

  it('a double submit starts one subscription', async () => {
    const link = await linkOf('gym-trial');
    const session = issueStaticTicket(served.t.app, link.id);
    const body = { session, fields: customer('cy@example.com'), card: card() };
    const answers = await Promise.all([1, 2, 3].map(() => call(served.server.url, 'POST', '/pay/gym-trial/pay', { token: null, body })));
    const codes = answers.map((a) => a.json.data.status_code);
    expect(codes.filter((c) => c === 'OK.07.04')).toHaveLength(1);
    for (const code of codes.filter((c) => c !== 'OK.07.04')) expect(['ER.03.22', 'ER.03.24']).toContain(code);
    const mine = await served.t.app.db.select().from(cardRegistrations).where(eq(cardRegistrations.customerEmail, 'cy@example.com'));
    expect(mine).toHaveLength(1);
    expect((await schedulesOf('gym-trial')).filter((s) => s.cardRegistrationReference === mine[0]!.reference)).toHaveLength(1);
  });
});
