import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { outboxEvents, scheduleRuns, schedules } from '../../../src/db/schema.ts';
import { createMailer } from '../../../src/workers/mailer.ts';
import { CONSOLE_USERS, call, useServedApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';
import { createPayment } from '../../support/payments.ts';
import { scheduleData, signSchedule, testClock } from '../../support/schedules.ts';

/**
 * Screens that tell the truth: one status for a payment on every screen and in the
 * CSV, an e-mail written to a file never called "sent", a schedule's failures counted as its runs
 * show them, the customer's mobile number and what was bought shown, and the events integrators
 * receive naming the customer and every change of a schedule.
 */
const clock = testClock('2026-04-01T09:00:00Z');
const served = useServedApp({ now: clock.now });
const db = () => served.t.app.db;

async function owner() {
  const c = new ConsoleClient(served.server.url);
  const res = await c.signIn(CONSOLE_USERS.acmeOwner.email, CONSOLE_USERS.acmeOwner.password);
  expect(res.status, textOf(res.html)).toBe(303);
  return c;
}
const nonceOf = (html: string) => /name="nonce" value="([^"]+)"/.exec(html)?.[1] ?? '';
/** The CSV's rows as objects by header name (no quoted commas in these tests). */
function csvRecords(csv: string): Array<Record<string, string>> {
  const [header, ...rows] = csv.trim().split('\r\n');
  const names = header!.split(',');
  return rows.map((r) => Object.fromEntries(r.split(',').map((v, i) => [names[i], v])));
}

describe('console › a payment’s status', () => {
  it('says "Partially refunded" after a partial refund on the payment’s page, in the list and in the CSV', async () => {
    const p = await createPayment(served.t, { amount: '300.00', customerEmail: 'partial@example.com' });
    const c = await owner();
    const path = `/console/payments/${p.id}`;
    const form = await c.get(path);
    const refunded = await c.postConfirmed(path, { action: 'refund', kind: 'partial', amount: '100.00', reason: 'One item back', nonce: nonceOf(form.html) });
    expect(refunded.status).toBe(303);
    const page = textOf((await c.get(path)).html);
    expect(page).toContain('₱300.00 Partially refunded');
    expect(page).not.toContain('Succeeded');
    expect(textOf((await c.get('/console/payments?q=partial%40example.com')).html)).toContain('₱300.00 Partially refunded');
    const [row] = csvRecords((await c.get('/console/payments.csv?q=partial%40example.com')).html);
    expect(row).toMatchObject({ transaction_id: p.id, status: 'succeeded', refund_state: 'partially_refunded', status_label: 'Partially refunded' });
  });
});

describe('console › a payment’s e-mail without a mail server', () => {
  it('says the e-mail was not e-mailed but saved as a file, never "sent"; the events API says `saved`; the mail names what was bought', async () => {
    const p = await createPayment(served.t, { amount: '40.00', customerEmail: 'file@example.com', notifyUser: true, linkSlug: 'acme-books' });
    const mailer = createMailer(served.t.app, { random: () => 0.5 });
    try {
      expect(await mailer.sendDue()).toBeGreaterThan(0);
    } finally {
      await mailer.close();
    }
    const [event] = await db()
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.paymentId, p.id), eq(outboxEvents.type, 'payment.succeeded')));
    expect(event).toMatchObject({ emailState: 'saved' });
    // The receipt it saved names what was bought: the link's title.
    const file = readdirSync(join(served.t.dataDir, 'mail')).find((f) => f.includes(event!.id));
    expect(readFileSync(join(served.t.dataDir, 'mail', file!), 'utf8')).toMatch(/For:\s+Acme Books/);
    const text = textOf((await (await owner()).get(`/console/payments/${p.id}`)).html);
    expect(text).toContain('E-mail about payment succeeded: not e-mailed: no mail server; saved as a file');
    expect(text).not.toMatch(/E-mail about payment succeeded: sent/);
    const listed = await call(served.server.url, 'GET', '/api/v1/events?type=payment.succeeded&limit=100');
    const view = (listed.json.data.items as Array<{ id: string; email: { state: string } }>).find((e) => e.id === event!.id);
    expect(view?.email.state).toBe('saved');
  });
});

describe('console › a payment’s customer and what was bought', () => {
  it('shows the mobile number the customer gave and the link’s title on the payment’s page and in the CSV', async () => {
    const p = await createPayment(served.t, {
      amount: '250.00',
      linkSlug: 'acme-books',
      customerEmail: 'mobile@example.com',
      customer: { 'customer.name': 'Ana Reyes', 'customer.contact.mobile': '+639175550123' },
    });
    const c = await owner();
    const text = textOf((await c.get(`/console/payments/${p.id}`)).html);
    expect(text).toContain('Mobile +639175550123');
    expect(text).toContain('What was bought Acme Books');
    const [row] = csvRecords((await c.get('/console/payments.csv?q=mobile%40example.com')).html);
    // A leading + is defused like any formula cell (a spreadsheet would otherwise read it as a number and drop the +).
    expect(row).toMatchObject({ transaction_id: p.id, customer_mobile: "'+639175550123", link_title: 'Acme Books' });
  });
});

describe('console › a schedule’s failures', () => {
  it('counts runs waiting for a retry after a decline as failed in a row, in plain words, not "0" beside them', async () => {
    clock.set('2026-04-02T00:00:30Z');
    const created = await call(served.server.url, 'POST', '/api/v1/schedule', { body: { payload: await signSchedule(scheduleData(), { iat: clock.now() }) } });
    const reference = created.json.data.reference as string;
    // What the scheduler leaves after three occurrences declined, each waiting for its retry.
    for (const minute of [1, 2, 3]) {
      await db()
        .insert(scheduleRuns)
        .values({
          id: `run_${randomUUID().replaceAll('-', '')}`,
          scheduleId: reference,
          dueAt: new Date(`2026-04-02T00:0${minute}:00Z`),
          status: 'retrying',
          attempts: 1,
          nextAttemptAt: new Date('2026-04-02T01:00:00Z'),
          lastFailureCode: 'card_declined',
          lastFailureMessage: 'Your card was declined. Try another card or contact your bank.',
        });
    }
    const text = textOf((await (await owner()).get(`/console/schedules/${reference}`)).html);
    expect(text).toContain('Failed in a row 3 (3 to be tried again)');
    expect(text).toContain('2026-04-02 08:03 UTC+08:00 Will retry Card declined 1');
    expect(text).not.toContain('card_declined');
  });
});

describe('events › the customer and every change of a schedule', () => {
  it('card_registration.completed and schedule.created carry the customer; resuming writes schedule.resumed', async () => {
    clock.set('2026-04-03T00:00:30Z');
    const registered = await call(served.server.url, 'POST', '/api/v1/card-registrations', {
      body: { customer: { name: 'Ana Reyes', email: 'ana.events@example.com' } },
    });
    const reference = registered.json.data.reference as string;
    const token = new URL(registered.json.data.link).pathname.split('/')[2]!;
    const saved = await call(served.server.url, 'POST', `/register/${token}/card`, {
      token: null,
      body: { fields: {}, card: { number: '4242424242424242', expiry: CARD_EXPIRY, cvc: '123', name: 'Ana Reyes' } },
    });
    expect(saved.json.data.status).toBe('active');
    const customer = { name: 'Ana Reyes', email: 'ana.events@example.com', mobile: null, first_name: null, last_name: null, billing_address: null };
    const eventsOf = async (type: string) =>
      (await call(served.server.url, 'GET', `/api/v1/events?type=${type}&limit=100`)).json.data.items as Array<{ data: Record<string, unknown> }>;
    expect((await eventsOf('card_registration.completed')).find((e) => e.data.reference === reference)?.data.customer).toEqual(customer);

    const scheduled = await call(served.server.url, 'POST', '/api/v1/schedule', {
      body: { payload: await signSchedule(scheduleData({ credit_card: { reference } }), { iat: clock.now() }) },
    });
    const schedule = scheduled.json.data.reference as string;
    expect((await eventsOf('schedule.created')).find((e) => e.data.schedule_reference === schedule)?.data.customer).toEqual(customer);

    await db()
      .update(schedules)
      .set({ status: 'suspended', suspendedAt: clock.now(), nextRunAt: null, consecutiveFailures: 3 })
      .where(eq(schedules.id, schedule));
    const resumed = await call(served.server.url, 'POST', `/api/v1/schedules/${schedule}/resume`);
    expect(resumed.json.data.status_code).toBe('OK.12.11');
    expect((await eventsOf('schedule.resumed')).find((e) => e.data.schedule_reference === schedule)?.data).toEqual({
      schedule_reference: schedule,
      time_offset: '+08:00',
      next_run_at: '2026-04-03T08:01:00.000+08:00',
    });

    const deleted = await call(served.server.url, 'DELETE', '/api/v1/card-registration', { body: { reference } });
    expect(deleted.json.data.status_code).toBe('OK.11.20');
    expect((await eventsOf('card_registration.deleted')).find((e) => e.data.reference === reference)?.data.customer).toEqual(customer);
  });
});

describe('console › the link editor’s hints', () => {
  it('never says payment pages are English only: they are in English, Filipino and Spanish', async () => {
    const c = await owner();
    const page = textOf((await c.get('/console/links/new')).html);
    expect(page).toContain('Customers can switch on the page');
    expect(page).not.toMatch(/in English until|later release/i);
  });
});
