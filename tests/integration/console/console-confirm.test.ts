import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { consoleUsers, payments, refunds, schedules, staffRefundCaps } from '../../../src/db/schema.ts';
import { CONSOLE_USERS, call, TEST_TOKEN, useServedApp } from '../../support/app.ts';
import { ConsoleClient, confirmStepFields, textOf } from '../../support/console.ts';
import { createPayment } from '../../support/payments.ts';
import { scheduleData, signSchedule, testClock } from '../../support/schedules.ts';
import { recordStatusCode } from '../../support/status-codes-seen.ts';

/**
 * Money and irreversible actions ask first (src/console/confirm.ts): the first POST of Refund,
 * Cancel schedule, Rotate and Remove changes nothing and shows a confirm step stating the
 * consequence; the confirm step's own form (confirmed=yes) does it, every value checked again.
 * Plain forms, so this is also the journey without JavaScript. Staff refund limits, set by an
 * owner on the Users page, refuse a staff member's refund at the confirm step already.
 */
const clock = testClock('2026-04-01T02:00:00Z');
const served = useServedApp({ now: clock.now });
const { acmeOwner, acmeStaff } = CONSOLE_USERS;

async function signedIn(user: { email: string; password: string }) {
  const c = new ConsoleClient(served.server.url);
  const res = await c.signIn(user.email, user.password);
  expect(res.status, textOf(res.html)).toBe(303);
  return c;
}
const db = () => served.t.app.db;
const refundsOf = (paymentId: string) => db().select().from(refunds).where(eq(refunds.paymentId, paymentId));
const nonceOf = (html: string) => /name="nonce" value="([^"]+)"/.exec(html)?.[1] ?? '';
/** The confirm step's list of consequences, as text. */
const stepText = (html: string) => textOf(/data-testid="confirm-step"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '');

describe('console › a refund asks first', () => {
  it('starts with an empty amount beside what is refundable, and the whole remaining amount as a choice left unticked', async () => {
    const p = await createPayment(served.t, { amount: '300.00' });
    const page = await (await signedIn(acmeOwner)).get(`/console/payments/${p.id}`);
    const amountInput = /<input[^>]*id="field-amount"[^>]*>/.exec(page.html)?.[0] ?? '';
    expect(amountInput).not.toBe('');
    expect(amountInput).not.toMatch(/value="[^"]/);
    expect(page.html).not.toMatch(/id="kind-full"[^>]*checked/);
    expect(textOf(page.html)).toContain('At most ₱300.00.');
    expect(textOf(page.html)).toContain('Instead, refund the whole remaining amount (₱300.00)');
  });

  it('states amount, currency, method, what remains and that it cannot be undone; refunds only on confirm', async () => {
    const p = await createPayment(served.t, { amount: '300.00' });
    const path = `/console/payments/${p.id}`;
    const owner = await signedIn(acmeOwner);
    const nonce = nonceOf((await owner.get(path)).html);
    // As the browser sends it: the whole-amount checkbox unticked is no `kind` at all.
    const asked = await owner.post(path, { action: 'refund', amount: '120.50', reason: 'Damaged cover', notify: 'yes', nonce });
    expect(asked.status).toBe(200);
    const step = stepText(asked.html);
    expect(step).toContain('Refund ₱120.50?');
    expect(step).toContain('₱120.50 PHP goes back to the customer’s Visa •••• 4242.');
    expect(step).toContain('₱179.50 PHP can still be refunded after it.');
    expect(step).toContain('The customer is e-mailed about it.');
    expect(step).toContain('Reason: Damaged cover');
    expect(step).toContain('A refund cannot be undone.');
    // The form is replaced by the step: one way forward, one way back.
    expect(asked.html).not.toContain('id="field-amount"');
    expect(await refundsOf(p.id)).toEqual([]);

    // Change the refund: the form again, with what was typed.
    const fields = confirmStepFields(asked.html)!;
    const back = await owner.post(path, { ...fields, confirmed: 'edit' });
    expect(back.html).toMatch(/id="field-amount"[^>]*value="120.50"/);
    expect(back.html).toMatch(/id="field-reason"[^>]*value="Damaged cover"/);
    expect(await refundsOf(p.id)).toEqual([]);

    const done = await owner.post(path, { ...fields, confirmed: 'yes' });
    expect(done.status).toBe(303);
    expect(await refundsOf(p.id)).toMatchObject([{ amountMinor: 12_050n, status: 'succeeded' }]);
  });

  it('states a whole-amount refund too, and refuses an amount with the whole-amount choice ticked', async () => {
    const p = await createPayment(served.t, { amount: '80.00' });
    const path = `/console/payments/${p.id}`;
    const owner = await signedIn(acmeOwner);
    const nonce = nonceOf((await owner.get(path)).html);
    const both = await owner.post(path, { action: 'refund', kind: 'full', amount: '10.00', reason: 'x', nonce });
    expect(textOf(both.html)).toContain('Amount must be empty when you choose the whole remaining amount');
    const none = await owner.post(path, { action: 'refund', kind: 'partial', amount: '', reason: 'x', nonce });
    expect(textOf(none.html)).toContain('Amount is required: enter how much to refund, or choose the whole remaining amount');
    const whole = await owner.post(path, { action: 'refund', kind: 'full', amount: '', reason: 'Order cancelled', nonce });
    expect(stepText(whole.html)).toContain('₱80.00 PHP (the whole remaining amount) goes back to the customer’s Visa •••• 4242.');
    expect(stepText(whole.html)).toContain('Nothing more can be refunded on this payment after it.');
    expect(await refundsOf(p.id)).toEqual([]);
  });

  it('refuses the confirmed refund (ER.20.42) when another refund changed what it would return, and refunds nothing more', async () => {
    const p = await createPayment(served.t, { amount: '100.00' });
    const path = `/console/payments/${p.id}`;
    const owner = await signedIn(acmeOwner);
    const nonce = nonceOf((await owner.get(path)).html);
    const asked = await owner.post(path, { action: 'refund', kind: 'full', amount: '', reason: 'Order cancelled', nonce });
    expect(stepText(asked.html)).toContain('₱100.00 PHP (the whole remaining amount)');
    // Meanwhile the integrator refunds part of it through the API.
    const api = await call(served.server.url, 'POST', '/api/v1/refund', { body: { transaction_id: p.id, notify_user: false, reason: 'API', amount: '30.00' } });
    expect(api.json.data.status_code).toBe('OK.04.00');
    const res = await owner.post(path, { ...confirmStepFields(asked.html)!, confirmed: 'yes' });
    expect(res.status).toBe(409);
    expect(textOf(res.html)).toContain('ER.20.42');
    // A console-only code: the page, not a JSON envelope, carries it.
    recordStatusCode({ data: { status_code: 'ER.20.42' } });
    expect(textOf(res.html)).toContain('was confirmed as 100.00 PHP but would now be 70.00 PHP');
    expect((await db().select().from(payments).where(eq(payments.id, p.id)))[0]).toMatchObject({ refundedMinor: 3_000n, refundCount: 1 });
  });
});

describe('console › staff refund limits', () => {
  it('an owner sets them on the Users page; a staff refund above them is refused at the confirm step and nothing changes', async () => {
    const owner = await signedIn(acmeOwner);
    const refused = await owner.post('/console/users', { action: 'refund-caps', currency: 'PHP', per_refund: '50.001', per_day: '' });
    expect(refused.status).toBe(422);
    expect(refused.html).toMatch(/id="field-per_refund"[^>]*aria-invalid="true"/);
    const saved = await owner.post('/console/users', { action: 'refund-caps', currency: 'PHP', per_refund: '50.00', per_day: '70.00' });
    expect(textOf(saved.html)).toContain('The staff refund limits in PHP are saved.');
    expect(textOf(saved.html)).toMatch(/PHP 50\.00 PHP 70\.00 PHP/);

    const staff = await signedIn(acmeStaff);
    expect((await staff.post('/console/users', { action: 'refund-caps', currency: 'PHP', per_refund: '', per_day: '' })).status).toBe(404);
    const p = await createPayment(served.t, { amount: '200.00' });
    const path = `/console/payments/${p.id}`;
    const above = await staff.post(path, {
      action: 'refund',
      kind: 'partial',
      amount: '60.00',
      reason: 'Too much',
      nonce: nonceOf((await staff.get(path)).html),
    });
    expect(above.status).toBe(403);
    expect(textOf(above.html)).toContain('Refund above your per-refund limit Reference: ER.20.40');
    expect(textOf(above.html)).toContain('is above what staff may refund at once (50.00 PHP)');
    expect(above.html).not.toContain('data-testid="confirm-step"');
    const first = await staff.postConfirmed(path, {
      action: 'refund',
      kind: 'partial',
      amount: '50.00',
      reason: 'First',
      nonce: nonceOf((await staff.get(path)).html),
    });
    expect(first.status).toBe(303);
    const daily = await staff.post(path, {
      action: 'refund',
      kind: 'partial',
      amount: '20.01',
      reason: 'Second',
      nonce: nonceOf((await staff.get(path)).html),
    });
    expect(textOf(daily.html)).toContain('Refund above your daily limit Reference: ER.20.41');
    expect(textOf(daily.html)).toContain('50.00 PHP refunded so far, 20.00 PHP left');
    expect(await refundsOf(p.id)).toHaveLength(1);
    // The owner is not limited.
    expect(
      (await owner.postConfirmed(path, { action: 'refund', kind: 'partial', amount: '150.00', reason: 'Owner', nonce: nonceOf((await owner.get(path)).html) }))
        .status,
    ).toBe(303);
    await owner.post('/console/users', { action: 'refund-caps', currency: 'PHP', per_refund: '', per_day: '' });
    expect(await db().select().from(staffRefundCaps)).toEqual([]);
  });
});

describe('console › cancel, rotate and remove ask first', () => {
  it('cancel schedule states the charges it stops; the schedule stays active until confirmed', async () => {
    const res = await call(served.server.url, 'POST', '/api/v1/schedule', {
      body: {
        payload: await signSchedule(scheduleData({ schedule: { second: '0', minute: '0', hour: '7', day_of_month: '1', month: '*', day_of_week: '*' } }), {
          iat: clock.now(),
        }),
      },
    });
    const reference = res.json.data.reference as string;
    const path = `/console/schedules/${reference}`;
    const owner = await signedIn(acmeOwner);
    const asked = await owner.post(path, { action: 'cancel' });
    expect(asked.status).toBe(200);
    const step = stepText(asked.html);
    expect(step).toContain('Cancel this schedule?');
    expect(step).toContain('No more charges will be made: 12 charges of ₱150.00 PHP were planned in the next 12 months, the next on 2026-04-30 23:00:00 UTC.');
    expect(step).toContain('cannot be restarted');
    expect(asked.html).toContain(`href="${path}"`);
    expect((await db().select().from(schedules).where(eq(schedules.id, reference)))[0]!.status).toBe('active');
    const done = await owner.post(path, { ...confirmStepFields(asked.html)!, confirmed: 'yes' });
    expect(done.status).toBe(303);
    expect((await db().select().from(schedules).where(eq(schedules.id, reference)))[0]!.status).toBe('cancelled');
  });

  it('rotate API token says integrations using it stop working; nothing changes until confirmed', async () => {
    const owner = await signedIn(acmeOwner);
    const asked = await owner.post('/console/developers', { action: 'rotate-token', overlap: 'none' });
    expect(stepText(asked.html)).toContain('Integrations using the current token stop working: every API call with it is refused at once.');
    expect(stepText(asked.html)).toContain('The new token is shown once');
    expect(asked.html).not.toContain('data-testid="new-secret"');
    expect((await call(served.server.url, 'GET', '/api/v1/integrator', { token: TEST_TOKEN })).status).toBe(200);
    const overlap = await owner.post('/console/developers', { action: 'rotate-secret', overlap: '24h' });
    expect(stepText(overlap.html)).toContain(
      'Schedules your server signs with the current secret keep working for 24 hours (until 2026-04-02 02:00 UTC), then are refused',
    );
    const webhook = await owner.post('/console/developers', { action: 'rotate-webhook' });
    expect(stepText(webhook.html)).toContain('Events are signed with both the current and the new secret until 2026-04-02 02:00 UTC');
    const bad = await owner.post('/console/developers', { action: 'rotate-token', overlap: '30d' });
    expect(bad.status).toBe(422);
    expect(bad.html).not.toContain('data-testid="confirm-step"');
  });

  it('remove user states what ends; the user stays until confirmed', async () => {
    const staff = await signedIn(acmeStaff);
    expect((await staff.get('/console')).status).toBe(200);
    const [row] = await db().select().from(consoleUsers).where(eq(consoleUsers.email, acmeStaff.email));
    const owner = await signedIn(acmeOwner);
    const asked = await owner.post(`/console/users/${row!.id}`, { action: 'remove' });
    const step = stepText(asked.html);
    expect(step).toContain(`Remove ${acmeStaff.email}?`);
    expect(step).toContain(`${acmeStaff.email} can no longer sign in.`);
    expect(step).toMatch(/Their (signed-in session ends|\d+ signed-in sessions end) at once\./);
    expect(step).toContain('This cannot be undone');
    expect((await db().select().from(consoleUsers).where(eq(consoleUsers.id, row!.id))).length).toBe(1);
    expect((await staff.get('/console')).status).toBe(200);
  });
});
