import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { declineMessages } from '../../../src/acquirer/acquirer.ts';
import { cardRegistrations, outboxEvents, sandboxVault } from '../../../src/db/schema.ts';
import { runSchedulerTick } from '../../../src/domain/schedules/tick.ts';
import { call, OTHER_TOKEN, sandboxOf, TEST_TOKEN, useServedApp } from '../../support/app.ts';
import { CARD_EXP, CARD_EXPIRY } from '../../support/cards.ts';
import { scheduleData, signSchedule, testClock } from '../../support/schedules.ts';

const clock = testClock('2026-03-02T00:00:30.000Z');

const served = useServedApp({ now: clock.now });

const register = (body: Record<string, unknown> = {}) => call(served.server.url, 'POST', '/api/v1/card-registrations', { body });
const tokenOf = (link: string) => new URL(link).pathname.split('/')[2]!;
const submitCard = (token: string, card: Record<string, string>, headers: Record<string, string> = {}) =>
  call(served.server.url, 'POST', `/register/${token}/card`, {
    token: null,
    headers,
    body: { fields: {}, card: { expiry: CARD_EXPIRY, cvc: '123', name: 'Ana Reyes', ...card } },
  });

describe('card registration', () => {
  it('creates a pending registration with a UUID reference and a hosted link', async () => {
    const res = await register({ customer: { name: 'Ana Reyes', email: 'ana@example.com' }, return_url: 'https://shop.example/done' });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ status_code: 'OK.11.00' });
    expect(res.json.data.reference).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(res.json.data.link).toMatch(new RegExp(`^${served.server.url}/register/[\\w-]{43}$`));
    const shown = await call(served.server.url, 'GET', `/api/v1/card-registrations/${res.json.data.reference}`);
    expect(shown.json.data.card_registration).toMatchObject({ status: 'pending', card: null, customer: { name: 'Ana Reyes', email: 'ana@example.com' } });
  });

  it('serves the hosted page with the checkout card form and its accessible names', async () => {
    const created = await register({ customer: { name: 'Ana Reyes' } });
    const page = await fetch(created.json.data.link);
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const name of ['Card number', 'Expiry date', 'Security code', 'Name on card', 'Save card']) expect(html).toContain(name);
    expect(html).toContain(`/register/${tokenOf(created.json.data.link)}/card`);
  });

  it('activates the registration when the sandbox verifies the card, and writes card_registration.completed', async () => {
    const created = await register({ callback_url: 'http://127.0.0.1:9/cb', return_url: 'https://shop.example/done' });
    const res = await submitCard(tokenOf(created.json.data.link), { number: '4242 4242 4242 4242' });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ status_code: 'OK.11.00', status: 'active', redirect_url: 'https://shop.example/done' });
    const shown = await call(served.server.url, 'GET', `/api/v1/card-registrations/${created.json.data.reference}`);
    expect(shown.json.data.card_registration).toMatchObject({
      status: 'active',
      card: { brand: 'visa', last4: '4242', exp_month: CARD_EXP.expMonth, exp_year: CARD_EXP.expYear },
    });
    expect(shown.text).not.toContain('4242424242424242');
    const [row] = await served.t.app.db.select().from(cardRegistrations).where(eq(cardRegistrations.reference, created.json.data.reference));
    expect(JSON.stringify(row)).not.toContain('4242424242424242');
    const events = (await served.t.app.db.select().from(outboxEvents).where(eq(outboxEvents.type, 'card_registration.completed'))).filter(
      (e) => e.data.reference === created.json.data.reference,
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.callbackUrl).toBe('http://127.0.0.1:9/cb');
    const page = await (await fetch(created.json.data.link)).text();
    expect(page).toContain('Card saved');
    const again = await submitCard(tokenOf(created.json.data.link), { number: '4242 4242 4242 4242' });
    expect(again.json.data.status_code).toBe('OK.11.00');
  });

  it('deleting an active registration removes the card from the sandbox vault: a later charge of its token is unknown_token', async () => {
    const created = await register();
    const reference = created.json.data.reference as string;
    expect((await submitCard(tokenOf(created.json.data.link), { number: '4242 4242 4242 4242' })).json.data.status).toBe('active');
    const [row] = await served.t.app.db.select().from(cardRegistrations).where(eq(cardRegistrations.reference, reference));
    const vaulted = () => served.t.app.db.select({ token: sandboxVault.token }).from(sandboxVault).where(eq(sandboxVault.token, row!.cardToken!));
    expect(await vaulted()).toEqual([{ token: row!.cardToken }]);
    const deleted = await call(served.server.url, 'DELETE', '/api/v1/card-registration', { body: { reference } });
    expect(deleted.json.data.status_code).toBe('OK.11.20');
    expect(await vaulted()).toEqual([]);
    const [after] = await served.t.app.db.select().from(cardRegistrations).where(eq(cardRegistrations.reference, reference));
    expect(after).toMatchObject({ status: 'deleted', forgetNextAt: null, forgetAttempts: 1 });
    const charged = await sandboxOf(served.t.app).acquirer.charge(
      { source: { token: row!.cardToken! }, amountMinor: 100n, currency: 'PHP' },
      { idempotencyKey: `after-forget:${reference}` },
    );
    expect(charged).toMatchObject({ status: 'declined', code: 'unknown_token' });
  });

  it('charges a vaulted card with the summary it was vaulted with, and declines it once its expiry month has passed', async () => {
    const tokens: string[] = [];
    for (const number of ['4242 4242 4242 4242', '5555 5555 5555 4444']) {
      const created = await register();
      await submitCard(tokenOf(created.json.data.link), { number });
      const [row] = await served.t.app.db.select().from(cardRegistrations).where(eq(cardRegistrations.reference, created.json.data.reference));
      tokens.push(row!.cardToken!);
    }
    const [visa, mastercard] = tokens as [string, string];
    const [vaultedVisa] = await served.t.app.db.select().from(sandboxVault).where(eq(sandboxVault.token, visa));
    // The Mastercard's expiry is now last month (by the app's clock).
    const now = served.t.app.now();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    await served.t.app.db
      .update(sandboxVault)
      .set({ expMonth: lastMonth.getUTCMonth() + 1, expYear: lastMonth.getUTCFullYear() })
      .where(eq(sandboxVault.token, mastercard));
    const key = (n: number) => `vaulted-summary:${visa}:${n}`;
    const results = await sandboxOf(served.t.app).acquirer.chargeSavedCards([
      { token: mastercard, amountMinor: 100n, currency: 'PHP', idempotencyKey: key(1) },
      { token: visa, amountMinor: 100n, currency: 'PHP', idempotencyKey: key(2) },
      { token: 'tok_unknown', amountMinor: 100n, currency: 'PHP', idempotencyKey: key(3) },
    ]);
    expect(results[0]).toEqual({ status: 'declined', code: 'expired_card', message: declineMessages.expired_card });
    expect(results[1]).toMatchObject({
      status: 'succeeded',
      brand: 'visa',
      last4: '4242',
      expMonth: vaultedVisa!.expMonth,
      expYear: vaultedVisa!.expYear,
      fingerprint: vaultedVisa!.fingerprint,
    });
    expect(results[1]!.fingerprint).toBe(sandboxOf(served.t.app).acquirer.fingerprint('4242424242424242'));
    expect(results[2]).toMatchObject({ status: 'declined', code: 'unknown_token' });
  });

  it('keeps the language the customer gave the card in (for the e-mails of its schedules); none when the browser names none of ours', async () => {
    const spanish = await register();
    const english = await register();
    await submitCard(tokenOf(spanish.json.data.link), { number: '4242 4242 4242 4242' }, { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' });
    await submitCard(tokenOf(english.json.data.link), { number: '4242 4242 4242 4242' }, { 'accept-language': 'de-DE' });
    const localeOf = async (reference: string) =>
      (await served.t.app.db.select().from(cardRegistrations).where(eq(cardRegistrations.reference, reference)))[0]!.locale;
    expect(await localeOf(spanish.json.data.reference)).toBe('es');
    expect(await localeOf(english.json.data.reference)).toBeNull();
  });

  it('keeps the registration pending when verification fails (ER.11.30), so it cannot be scheduled', async () => {
    const created = await register();
    const res = await submitCard(tokenOf(created.json.data.link), { number: '4000 0000 0000 0002' });
    expect(res.json.data).toMatchObject({ status_code: 'ER.11.30', decline_code: 'card_declined' });
    expect(res.json.messages.card[0]).toMatch(/declined/);
    const scheduled = await call(served.server.url, 'POST', '/api/v1/schedule', {
      body: { payload: await signSchedule(scheduleData({ credit_card: { reference: created.json.data.reference } }), { iat: clock.now() }) },
    });
    expect(scheduled.status).toBe(422);
    expect(scheduled.json.messages.reference[0]).toMatch(/does not exist/);
  });

  it('checks the card fields like checkout does', async () => {
    const created = await register();
    const res = await submitCard(tokenOf(created.json.data.link), { number: '4242 4242 4242 4241', expiry: '13/30' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.json.messages)).toEqual(expect.arrayContaining(['card.number', 'card.expiry']));
  });

  it('rejects a card that expired by our clock (422 on card.expiry) without spending an attempt', async () => {
    const created = await register();
    // The clock reads 2026-03-02: a card valid through February 2026 has expired.
    const res = await submitCard(tokenOf(created.json.data.link), { number: '4242424242424242', expiry: '02/26' });
    expect(res.status).toBe(422);
    expect(res.json.data.status_code).toBe('ER.02.30');
    expect(res.json.messages).toEqual({ 'card.expiry': ['This card has expired: check the expiry date'] });
    const [row] = await served.t.app.db.select().from(cardRegistrations).where(eq(cardRegistrations.reference, created.json.data.reference));
    expect(row).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('answers a registration link past its expiry with 410 ER.12.30, and changes nothing', async () => {
    const created = await register();
    const started = clock.now();
    try {
      // PAYLINK_CHECKOUT_TTL_SECONDS (default one hour) after creation the link is dead.
      clock.advance(served.t.app.config.checkoutTtlSeconds - 1);
      const page = await fetch(created.json.data.link);
      expect(page.status).toBe(200);
      clock.advance(1);
      const res = await submitCard(tokenOf(created.json.data.link), { number: '4242424242424242' });
      expect(res.status).toBe(410);
      expect(res.json.data.status_code).toBe('ER.12.30');
      expect(res.json.messages.token[0]).toMatch(/expired/);
      const [row] = await served.t.app.db.select().from(cardRegistrations).where(eq(cardRegistrations.reference, created.json.data.reference));
      expect(row).toMatchObject({ status: 'pending', attempts: 0, cardToken: null });
    } finally {
      clock.set(started);
    }
  });

  it('locks a registration link after PAYLINK_CHECKOUT_MAX_ATTEMPTS failed cards with 429 ER.12.30, even for a good card', async () => {
    const created = await register();
    const token = tokenOf(created.json.data.link);
    const max = served.t.app.config.checkoutMaxAttempts;
    expect(max).toBe(5);
    for (let i = 0; i < max; i++) {
      const declined = await submitCard(token, { number: '4000 0000 0000 0002' });
      expect(declined.json.data.status_code).toBe('ER.11.30');
    }
    const locked = await submitCard(token, { number: '4242 4242 4242 4242' });
    expect(locked.status).toBe(429);
    expect(locked.json.data.status_code).toBe('ER.12.30');
    expect(locked.json.messages.token[0]).toMatch(/Too many attempts/);
    const [row] = await served.t.app.db.select().from(cardRegistrations).where(eq(cardRegistrations.reference, created.json.data.reference));
    expect(row).toMatchObject({ status: 'pending', attempts: max, cardToken: null });
  });

  it('answers an unknown page token with 404', async () => {
    expect((await fetch(`${served.server.url}/register/not-a-real-token`)).status).toBe(404);
    expect((await submitCard('not-a-real-token', { number: '4242424242424242' })).status).toBe(404);
  });

  it('never shows a registration to another integrator', async () => {
    const created = await register();
    const res = await call(served.server.url, 'GET', `/api/v1/card-registrations/${created.json.data.reference}`, { token: OTHER_TOKEN });
    expect(res.status).toBe(404);
    const del = await call(served.server.url, 'DELETE', '/api/v1/card-registration', { body: { reference: created.json.data.reference }, token: OTHER_TOKEN });
    expect(del.status).toBe(404);
  });
});

describe('newcomer journey', () => {
  it('registers a card on the hosted page, schedules every minute at +08:00, sees runs, refunds one, cancels', async () => {
    // 1. Register a test card on the hosted page.
    const created = await register({ customer: { name: 'Ana Reyes', email: 'ana@example.com' } });
    const saved = await submitCard(tokenOf(created.json.data.link), { number: '4242424242424242' });
    expect(saved.json.data.status).toBe('active');
    const reference = created.json.data.reference;

    // 2. Sign a JWT (HS256, the integrator's secret) and schedule a charge every minute at +08:00.
    const payload = await signSchedule(
      {
        credit_card: { reference },
        schedule: { second: '0', minute: '*', hour: '*', day_of_month: '*', month: '*', day_of_week: '*' },
        payment: { description: 'Coffee subscription', amount: 150, currency: 'PHP', merchant_reference_id: 'sub-42' },
        route: { notify_user: true },
        time_offset: '+08:00',
      },
      { iat: clock.now() },
    );
    const scheduled = await call(served.server.url, 'POST', '/api/v1/schedule', { body: { payload }, token: TEST_TOKEN });
    expect(scheduled.json.data.status_code).toBe('OK.12.00');
    const scheduleRef = scheduled.json.data.reference;

    // 3. Time passes; the scheduler charges each minute once.
    for (const at of ['2026-03-02T00:01:00.200Z', '2026-03-02T00:02:00.200Z']) {
      clock.set(at);
      await runSchedulerTick(served.t.app);
      await runSchedulerTick(served.t.app);
    }
    const shown = await call(served.server.url, 'GET', `/api/v1/schedules/${scheduleRef}`);
    const runs = shown.json.data.schedule.runs;
    expect(runs.map((r: any) => [r.due_at, r.status])).toEqual([
      ['2026-03-02T08:02:00.000+08:00', 'succeeded'],
      ['2026-03-02T08:01:00.000+08:00', 'succeeded'],
    ]);
    expect(shown.json.data.schedule.next_run_at).toBe('2026-03-02T08:03:00.000+08:00');

    // 4. Refund one: a scheduled charge is an ordinary transaction.
    const refund = await call(served.server.url, 'POST', '/api/v1/refund', {
      body: { transaction_id: runs[1].transaction_id, notify_user: 'false', reason: 'customer asked' },
    });
    expect(refund.json.data).toMatchObject({ status_code: 'OK.02.00', transaction_id: runs[1].transaction_id });
    const afterRefund = await call(served.server.url, 'GET', `/api/v1/schedules/${scheduleRef}`);
    expect(afterRefund.json.data.schedule.runs[1].refunded_amount).toBe('150.00');

    // 5. Cancel it: no more charges.
    const cancelled = await call(served.server.url, 'DELETE', '/api/v1/schedule', { body: { reference: scheduleRef } });
    expect(cancelled.json.data.status_code).toBe('OK.12.20');
    clock.set('2026-03-02T00:03:00.200Z');
    await runSchedulerTick(served.t.app);
    expect((await call(served.server.url, 'GET', `/api/v1/schedules/${scheduleRef}`)).json.data.schedule.runs).toHaveLength(2);
  });
});
