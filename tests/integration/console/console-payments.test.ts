import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, cardRegistrations, outboxEvents, payments, refunds, schedules, webhookAttempts } from '../../../src/db/schema.ts';
import { resendEvent } from '../../../src/domain/notifications/events.ts';
import { CONSOLE_USERS, call, OTHER_TOKEN, TEST_TOKEN, useServedApp } from '../../support/app.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';
import { CARDS, createPayment } from '../../support/payments.ts';
import { ACME_CARD, scheduleData, signSchedule, testClock } from '../../support/schedules.ts';

/**
 * The console's payments, schedules and card registrations: the same domain services as the API
 * (lists, refunds, resend, cancel, resume), each action audited; another integrator's objects are
 * 404 for GET and POST alike.
 */
const clock = testClock('2026-03-02T09:00:00Z');
const served = useServedApp({ now: clock.now });
const { acmeOwner, acmeStaff, otherOwner } = CONSOLE_USERS;

async function signedIn(user: { email: string; password: string }) {
  const c = new ConsoleClient(served.server.url);
  const res = await c.signIn(user.email, user.password);
  expect(res.status, textOf(res.html)).toBe(303);
  return c;
}
const db = () => served.t.app.db;
const refundsOf = (paymentId: string) => db().select().from(refunds).where(eq(refunds.paymentId, paymentId)).orderBy(refunds.createdAt);
const audited = async (action: string) =>
  (await db().select().from(auditLog).where(eq(auditLog.action, action)).orderBy(auditLog.id)).map((e) => ({ email: e.actorEmail, target: e.target }));
/** The links in a page's list of payments (transaction ids), in order. */
const listedIds = (html: string) => [...html.matchAll(/href="\/console\/payments\/(txn_[0-9a-f]{32})"/g)].map((m) => m[1]);
/** The refund form's one-time nonce on a payment page. */
const nonceOf = (html: string) => /name="nonce" value="([^"]+)"/.exec(html)?.[1] ?? '';

/** The owner's console, signed in again when the test clock has moved past the idle timeout (the clock only moves forward). */
let ownerSession: { client: ConsoleClient; at: number } | undefined;
async function asOwner() {
  const now = clock.now().getTime();
  if (!ownerSession || now - ownerSession.at > 10 * 60_000) ownerSession = { client: await signedIn(acmeOwner), at: now };
  return ownerSession.client;
}

describe('console › payments list', () => {
  it('lists payments newest first with the payer, the amount for its currency, the status and the link; another integrator’s are not there', async () => {
    clock.set('2026-03-03T10:00:00Z');
    const older = await createPayment(served.t, {
      amount: '1250.00',
      customerEmail: 'ana@example.com',
      customer: { 'customer.name': 'Ana Reyes' },
      linkSlug: 'acme-books',
    });
    clock.set('2026-03-03T11:00:00Z');
    const newer = await createPayment(served.t, { amount: '99.50', card: CARDS.declined, customerEmail: 'ben@example.com' });
    const foreign = await createPayment(served.t, { integrator: 'Other Shop', currency: 'USD', amount: '10.00' });
    const owner = await asOwner();
    const page = await owner.get('/console/payments');
    expect(page.status).toBe(200);
    const ids = listedIds(page.html);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(ids).not.toContain(foreign.id);
    const text = textOf(page.html);
    expect(text).toContain('Ana Reyes ana@example.com ₱1,250.00 Succeeded Visa •••• 4242 acme-books');
    expect(text).toContain('ben@example.com ₱99.50 Failed Visa •••• 0002');
  });

  it('filters by status, link and date range, and searches a transaction id, a merchant reference or an e-mail', async () => {
    clock.set('2026-03-05T08:00:00Z');
    const marked = await createPayment(served.t, { merchantReferenceId: 'order-filter-7', customerEmail: 'Filter.Me@Example.com', linkSlug: 'acme-open' });
    clock.set('2026-03-06T08:00:00Z');
    const failed = await createPayment(served.t, { card: CARDS.declined, customerEmail: 'x@example.com' });
    const owner = await asOwner();
    const only = async (query: string) => listedIds((await owner.get(`/console/payments?${query}`)).html);
    expect(await only(`q=${marked.id}`)).toEqual([marked.id]);
    expect(await only('q=order-filter-7')).toEqual([marked.id]);
    expect(await only('q=filter.me%40example.com')).toEqual([marked.id]);
    expect(await only('link=acme-open')).toEqual([marked.id]);
    const failedOnes = await only('status=failed');
    expect(failedOnes).toContain(failed.id);
    expect(failedOnes).not.toContain(marked.id);
    expect(await only('from=2026-03-05&to=2026-03-05')).toEqual([marked.id]);
    expect(await only('from=2026-03-06')).toEqual([failed.id]);
  });

  it('filters by every status the list shows: succeeded, partially refunded, refunded and failed', async () => {
    clock.set('2026-03-07T08:00:00Z');
    const kept = await createPayment(served.t, { customerEmail: 'states@example.com', amount: '300.00' });
    const partly = await createPayment(served.t, { customerEmail: 'states@example.com', amount: '300.00' });
    const wholly = await createPayment(served.t, { customerEmail: 'states@example.com', amount: '300.00' });
    const failed = await createPayment(served.t, { customerEmail: 'states@example.com', card: CARDS.declined });
    for (const [payment, amount] of [
      [partly, 100],
      [wholly, 300],
    ] as const) {
      const res = await call(served.server.url, 'POST', '/api/v1/refund', {
        token: TEST_TOKEN,
        body: { transaction_id: payment.id, notify_user: false, reason: 'Returned', amount },
      });
      expect(res.json.data.status_code).toMatch(/^OK\.0[24]\.00$/);
    }
    const owner = await asOwner();
    const only = async (status: string) => listedIds((await owner.get(`/console/payments?q=states%40example.com&status=${status}`)).html);
    expect(await only('succeeded')).toEqual([kept.id]);
    expect(await only('partially_refunded')).toEqual([partly.id]);
    expect(await only('refunded')).toEqual([wholly.id]);
    expect(await only('failed')).toEqual([failed.id]);
    const page = await owner.get('/console/payments?status=refunded');
    expect(textOf(/<select id="field-status"[\s\S]*?<\/select>/.exec(page.html)![0])).toBe('Any Succeeded Partially refunded Refunded Failed');
    expect(page.html).toContain('<option value="refunded" selected>Refunded</option>');
    // The API filters alike, by refund_state.
    const api = await call(served.server.url, 'GET', '/api/v1/transactions?customer_email=states%40example.com&refund_state=partially_refunded', {
      token: TEST_TOKEN,
    });
    expect(api.json.data.items.map((t: { transaction_id: string }) => t.transaction_id)).toEqual([partly.id]);
    const wrong = await call(served.server.url, 'GET', '/api/v1/transactions?refund_state=some', { token: TEST_TOKEN });
    expect(wrong.status).toBe(422);
  });

  it('offers the integrator’s links to pick from, and keeps a slug typed into the address', async () => {
    const owner = await asOwner();
    const page = await owner.get('/console/payments?link=acme-open');
    const select = /<select id="field-link"[\s\S]*?<\/select>/.exec(page.html)![0];
    expect(select).toContain('<option value="acme-open" selected>Acme donation (acme-open)</option>');
    expect(select).toContain('<option value="acme-books">Acme Books (acme-books)</option>');
    expect(select).not.toContain('other-shop');
    expect(page.html).not.toMatch(/<input[^>]*name="link"/);
    const typed = await owner.get('/console/payments?link=no-such-link');
    expect(typed.status).toBe(200);
    expect(typed.html).toContain('<option value="no-such-link" selected>no-such-link</option>');
    expect(textOf(typed.html)).toContain('No payment matches these filters.');
  });

  it('refuses a bad filter with a clear message, never a 5xx', async () => {
    const owner = await asOwner();
    const bad = await owner.get('/console/payments?from=yesterday&status=paid&q=txn_nothex');
    expect(bad.status).toBe(422);
    const text = textOf(bad.html);
    expect(text).toContain('From must be a date such as 2026-03-31');
    expect(text).toContain('Status must be one of: succeeded, partially refunded, refunded, failed');
    expect(text).toContain('Search is not a transaction id');
    const unknownCursor = await owner.get('/console/payments?after=txn_00000000000000000000000000000000');
    expect(unknownCursor.status).toBe(404);
    expect(textOf(unknownCursor.html)).toContain('does not exist');
  });

  it('pages with Older and Newer links that keep the filters', async () => {
    for (let i = 0; i < 27; i++) await createPayment(served.t, { customerEmail: 'pager@example.com' });
    const owner = await asOwner();
    const first = await owner.get('/console/payments?q=pager%40example.com');
    expect(listedIds(first.html)).toHaveLength(25);
    const older = /href="(\/console\/payments\?q=pager%40example\.com&amp;after=txn_[0-9a-f]{32})" rel="next"/.exec(first.html)?.[1];
    expect(older).toBeDefined();
    const second = await owner.get(older!.replaceAll('&amp;', '&'));
    expect(listedIds(second.html)).toHaveLength(2);
    expect(second.html).not.toMatch(/rel="next"/);
    expect(second.html).toMatch(/rel="prev"/);
    expect(listedIds(second.html).some((id) => listedIds(first.html).includes(id))).toBe(false);
  });
});

describe('console › payments CSV', () => {
  it('exports every page of the filtered list as an RFC 4180 attachment, with formula cells defused', async () => {
    for (let i = 0; i < 104; i++) await createPayment(served.t, { customerEmail: 'bulk@example.com', merchantReferenceId: `bulk-${i}` });
    await createPayment(served.t, { customerEmail: 'bulk@example.com', merchantReferenceId: '=HYPERLINK("https://evil.example","x")' });
    await createPayment(served.t, { customerEmail: 'bulk@example.com', merchantReferenceId: '+1, "quoted"\nline' });
    await createPayment(served.t, { customerEmail: 'other@example.com', merchantReferenceId: '@SUM(A1)' });
    const owner = await asOwner();
    const res = await owner.get('/console/payments.csv?q=bulk%40example.com');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="paylink-payments-\d{4}-\d{2}-\d{2}\.csv"$/);
    const csv = res.html;
    expect(csv.startsWith('transaction_id,created_at,status,refund_state,amount,currency,')).toBe(true);
    const records = csv.split(/\r\n(?=txn_|$)/).filter(Boolean);
    // the header and 106 payments: more than one page of 100
    expect(records).toHaveLength(107);
    expect(csv).toContain(`,"'=HYPERLINK(""https://evil.example"",""x"")",`);
    expect(csv).toContain(`,"'+1, ""quoted""\nline",`);
    expect(csv).not.toContain('@SUM');
    expect(csv).toMatch(/,100\.00,PHP,0\.00,,bulk@example\.com,/);
  });

  it('needs a session and refuses bad filters with a plain 422', async () => {
    const anonymous = await new ConsoleClient(served.server.url).get('/console/payments.csv');
    expect(anonymous.status).toBe(303);
    const owner = await asOwner();
    const bad = await owner.get('/console/payments.csv?status=paid');
    expect(bad.status).toBe(422);
    expect(bad.html).toContain('Status must be one of: succeeded, partially refunded, refunded, failed');
  });
});

describe('console › a payment’s page', () => {
  it('resends the receipt to the address it went to, audited, says where, and at most 3 times an hour', async () => {
    clock.set('2026-03-10T08:00:00Z');
    const p = await createPayment(served.t, { customerEmail: 'receipt.again@example.com', notifyUser: true });
    const receiptRow = async () =>
      (
        await db()
          .select()
          .from(outboxEvents)
          .where(and(eq(outboxEvents.paymentId, p.id), eq(outboxEvents.type, 'payment.succeeded')))
      )[0]!;
    const mailed = () => db().update(outboxEvents).set({ emailState: 'sent', emailSentAt: clock.now() }).where(eq(outboxEvents.paymentId, p.id));
    const path = `/console/payments/${p.id}`;
    const owner = await asOwner();
    // While the first e-mail waits for the mailer there is nothing to resend: no button, and a form sent anyway is refused.
    expect(textOf((await owner.get(path)).html)).not.toContain('Resend receipt');
    const waiting = await owner.post(path, { action: 'resend-receipt' });
    expect(waiting.status).toBe(409);
    expect(textOf(waiting.html)).toContain('Receipt e-mail is already waiting to be sent');
    expect(textOf(waiting.html)).toContain('Reference: ER.20.61');
    for (let i = 1; i <= 3; i++) {
      await mailed();
      const res = await owner.post(path, { action: 'resend-receipt' });
      expect(res.status, textOf(res.html)).toBe(303);
      const page = await owner.get(res.location!);
      expect(textOf(page.html)).toContain('The receipt is queued to be e-mailed again to receipt.again@example.com. Reference: OK.20.60');
      expect(await receiptRow()).toMatchObject({ emailState: 'pending', emailTo: 'receipt.again@example.com', emailNextAt: clock.now() });
    }
    expect((await audited('receipt.resent')).filter((e) => e.target === p.id)).toHaveLength(3);
    // The address bar cannot make the page claim another address.
    expect(textOf((await owner.get(`${path}?receipt=someone.else%40example.com`)).html)).not.toContain('queued to be e-mailed again');
    await mailed();
    const fourth = await owner.post(path, { action: 'resend-receipt' });
    expect(fourth.status).toBe(429);
    expect(textOf(fourth.html)).toContain('Too many receipt resends');
    expect((await receiptRow()).emailState).toBe('sent');
    // An hour later it may be sent again.
    clock.set('2026-03-10T09:00:01Z');
    expect((await (await asOwner()).post(path, { action: 'resend-receipt' })).status).toBe(303);
  });

  it('refuses to resend a receipt that was never e-mailed, and another integrator’s payment is 404', async () => {
    const quiet = await createPayment(served.t, { customerEmail: 'quiet@example.com', notifyUser: false });
    const owner = await asOwner();
    const res = await owner.post(`/console/payments/${quiet.id}`, { action: 'resend-receipt' });
    expect(res.status).toBe(409);
    expect(textOf(res.html)).toContain('Payment has no receipt e-mail');
    expect(textOf(res.html)).toContain('Reference: ER.20.60');
    const foreign = await createPayment(served.t, { integrator: 'Other Shop', currency: 'USD' });
    await db().update(outboxEvents).set({ emailState: 'sent' }).where(eq(outboxEvents.paymentId, foreign.id));
    const cross = await owner.post(`/console/payments/${foreign.id}`, { action: 'resend-receipt' });
    expect(cross.status).toBe(404);
    expect((await audited('receipt.resent')).map((e) => e.target)).not.toContain(foreign.id);
  });

  it('shows the timeline in time order: the payment, each refund, each callback attempt with its status code and time, and the e-mails', async () => {
    clock.set('2026-03-10T09:00:00Z');
    const p = await createPayment(served.t, { amount: '500.00', customerEmail: 'tl@example.com', notifyUser: true });
    const [event] = await db().select().from(outboxEvents).where(eq(outboxEvents.type, 'payment.succeeded')).orderBy(outboxEvents.createdAt);
    const [mine] = await db()
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.type, 'payment.succeeded'), eq(outboxEvents.emailTo, 'tl@example.com')));
    expect(event).toBeDefined();
    await db()
      .insert(webhookAttempts)
      .values([
        { id: 'wha_t1', eventId: mine!.id, attempt: 1, startedAt: new Date('2026-03-10T09:00:01Z'), latencyMs: 120, statusCode: 503 },
        { id: 'wha_t2', eventId: mine!.id, attempt: 2, startedAt: new Date('2026-03-10T09:00:31Z'), latencyMs: 45, statusCode: 200 },
      ]);
    await db()
      .update(outboxEvents)
      .set({ callbackState: 'delivered', callbackAttempts: 2, emailState: 'sent', emailSentAt: new Date('2026-03-10T09:00:05Z') })
      .where(eq(outboxEvents.id, mine!.id));
    const owner = await asOwner();
    const page = await owner.get(`/console/payments/${p.id}`);
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    const order = [
      'Paid: ₱500.00',
      'Callback payment succeeded: delivered',
      'Attempt 1 at 2026-03-10 09:00:01 UTC: HTTP 503 in 120 ms',
      'Attempt 2 at 2026-03-10 09:00:31 UTC: HTTP 200 in 45 ms',
      'E-mail about payment succeeded: sent',
    ];
    const at = order.map((s) => text.indexOf(s));
    expect(
      at.every((i) => i >= 0),
      text,
    ).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('shows a callback with no destination as such in the timeline: sent to no one, and why', async () => {
    clock.set('2026-03-10T10:00:00Z');
    const p = await createPayment(served.t, { amount: '75.00', callbackUrl: null });
    const owner = await asOwner();
    const text = textOf((await owner.get(`/console/payments/${p.id}`)).html);
    expect(text).toContain('Callback payment succeeded: no destination');
    expect(text).toContain('was sent to no one: no callback URL was named and the account has no default callback URL (Developers)');
  });

  it('refunds part, then the rest, through the refund service: the API’s codes, the refunds in the timeline, each audited', async () => {
    const p = await createPayment(served.t, { amount: '300.00' });
    const path = `/console/payments/${p.id}`;
    const owner = await asOwner();
    let page = await owner.get(path);
    const partial = await owner.postConfirmed(path, {
      action: 'refund',
      kind: 'partial',
      amount: '120.50',
      reason: 'Damaged cover',
      notify: 'yes',
      nonce: nonceOf(page.html),
    });
    expect(partial.status).toBe(303);
    page = await owner.get(partial.location!);
    expect(textOf(page.html)).toMatch(/Partial refund successful — ₱120\.50 \(rfd_\w+, succeeded\)\. Reference: OK\.04\.00/);
    expect(textOf(page.html)).toContain('Up to ₱179.50 can still be refunded.');
    clock.advance(60);
    const full = await owner.postConfirmed(path, { action: 'refund', kind: 'full', amount: '', reason: 'Order cancelled', nonce: nonceOf(page.html) });
    expect(full.status).toBe(303);
    page = await owner.get(full.location!);
    const text = textOf(page.html);
    expect(text).toMatch(/Full refund successful — ₱179\.50 \(rfd_\w+, succeeded\)\. Reference: OK\.02\.00/);
    expect(text).toContain('Partial refund of ₱120.50 succeeded');
    expect(text).toContain('Full refund of ₱179.50 succeeded');
    expect(text).not.toContain('can still be refunded');
    expect((await refundsOf(p.id)).map((r) => [r.amountMinor, r.status])).toEqual([
      [12050n, 'succeeded'],
      [17950n, 'succeeded'],
    ]);
    const entries = (await audited('refund.requested')).filter((e) => e.target?.includes(p.id));
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ email: acmeOwner.email });
    expect(entries[0]!.target).toMatch(/^rfd_\S+ of txn_\S+ \(partial, 120\.50 PHP\)$/);
  });

  it('refuses an over-refund with the API’s code and message, and nothing changes', async () => {
    const p = await createPayment(served.t, { amount: '50.00' });
    const path = `/console/payments/${p.id}`;
    const owner = await asOwner();
    const page = await owner.get(path);
    const res = await owner.post(path, { action: 'refund', kind: 'partial', amount: '50.01', reason: 'Too much', nonce: nonceOf(page.html) });
    expect(res.status).toBe(200);
    const text = textOf(res.html);
    expect(text).toContain('Refund amount exceeds the refundable amount');
    expect(text).toContain('Reference: ER.20.21');
    expect(res.html).toMatch(/role="alert"/);
    const api = await call(served.server.url, 'POST', '/api/v1/refund', {
      body: { transaction_id: p.id, notify_user: false, reason: 'Too much', amount: '50.01' },
    });
    expect(api.json.data.status_code).toBe('ER.20.21');
    for (const message of api.json.messages.amount) expect(text).toContain(message);
    expect(await refundsOf(p.id)).toEqual([]);
  });

  it('refuses a partial refund without an amount, or without a reason, beside the field', async () => {
    const p = await createPayment(served.t, { amount: '50.00' });
    const path = `/console/payments/${p.id}`;
    const owner = await asOwner();
    const nonce = nonceOf((await owner.get(path)).html);
    const noAmount = await owner.post(path, { action: 'refund', kind: 'partial', amount: '', reason: 'x', nonce });
    expect(textOf(noAmount.html)).toContain('Amount is required: enter how much to refund, or choose the whole remaining amount');
    const noReason = await owner.post(path, { action: 'refund', kind: 'full', reason: '   ', nonce });
    expect(textOf(noReason.html)).toContain('Reason must not be empty');
    expect(noReason.html).toMatch(/id="field-reason"[^>]*aria-invalid="true"/);
    const neither = textOf((await owner.post(path, { action: 'refund', kind: 'partial', amount: '', reason: '', nonce })).html);
    expect(neither).toContain('Amount is required: enter how much to refund, or choose the whole remaining amount');
    expect(neither).toContain('Reason must not be empty');
    const noNonce = await owner.post(path, { action: 'refund', kind: 'full', reason: 'Forged form' });
    expect(noNonce.status).toBe(422);
    expect(textOf(noNonce.html)).toContain('The form’s one-time code is missing: reload the page');
    expect(nonceOf(noNonce.html)).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(await refundsOf(p.id)).toEqual([]);
  });

  it('refunds once when the same form is sent twice, one after the other or at the same time', async () => {
    const p = await createPayment(served.t, { amount: '80.00' });
    const path = `/console/payments/${p.id}`;
    const owner = await asOwner();
    const page = await owner.get(path);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.html)![1]!;
    // The confirm step's form, sent twice (a double click on Refund) and once more after Back.
    const form = {
      _csrf: csrf,
      action: 'refund',
      kind: 'partial',
      amount: '10.00',
      reason: 'Double click',
      nonce: nonceOf(page.html),
      confirmed: 'yes',
      confirmed_minor: '1000',
    };
    const [a, b] = await Promise.all([owner.post(path, form), owner.post(path, form)]);
    const again = await owner.post(path, form);
    for (const res of [a, b, again]) expect(res.status).toBe(303);
    expect(new Set([a.location, b.location, again.location]).size).toBe(1);
    const rows = await refundsOf(p.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.amountMinor).toBe(1000n);
    const [payment] = await db().select().from(payments).where(eq(payments.id, p.id));
    expect(payment!.refundedMinor).toBe(1000n);
    // The same form changed after Back: refused (ER.02.40), and the page gives a new form.
    const changed = await owner.post(path, { ...form, amount: '20.00', confirmed_minor: '2000' });
    expect(textOf(changed.html)).toContain('Reference: ER.02.40');
    expect(textOf(changed.html)).toContain('This form was already sent for another refund.');
    expect(nonceOf(changed.html)).not.toBe(form.nonce);
    expect(await refundsOf(p.id)).toHaveLength(1);
    // A new form (a new nonce) is a new refund.
    const next = await owner.postConfirmed(path, {
      action: 'refund',
      kind: 'partial',
      amount: '10.00',
      reason: 'Second one',
      nonce: nonceOf((await owner.get(path)).html),
    });
    expect(next.status).toBe(303);
    expect(await refundsOf(p.id)).toHaveLength(2);
  });

  it('shows an acquirer’s refusal as ER.20.26 with its reason', async () => {
    const p = await createPayment(served.t, { amount: '40.00', card: CARDS.refundFails });
    const path = `/console/payments/${p.id}`;
    const owner = await asOwner();
    const res = await owner.postConfirmed(path, { action: 'refund', kind: 'full', reason: 'Try', nonce: nonceOf((await owner.get(path)).html) });
    expect(res.status).toBe(303);
    const page = await owner.get(res.location!);
    expect(textOf(page.html)).toMatch(/The acquirer refused the refund — .*Reference: ER\.20\.26/);
    expect(page.html).toMatch(/class="alert" role="alert"/);
    // The acquirer's reason in words in the timeline; its code only in the reference line for support.
    expect(textOf(page.html)).toContain('Full refund of ₱40.00 failed: The card issuer does not accept refunds to this card.');
    expect(page.html).toMatch(/data-support-reference[^>]*>Reference: <span translate="no">refund_not_supported<\/span>/);
    expect(page.html.replace(/<small class="support-reference"[\s\S]*?<\/small>/g, '')).not.toContain('refund_not_supported');
  });

  it('resends a callback: queued again at once, audited', async () => {
    const p = await createPayment(served.t, { amount: '20.00', callbackUrl: 'https://merchant.example/hooks/resend' });
    const [event] = await db().select().from(outboxEvents).where(eq(outboxEvents.callbackUrl, 'https://merchant.example/hooks/resend'));
    await db().update(outboxEvents).set({ callbackState: 'failed', callbackNextAt: null }).where(eq(outboxEvents.id, event!.id));
    const path = `/console/payments/${p.id}`;
    const owner = await asOwner();
    const res = await owner.post(path, { action: 'resend', event: event!.id });
    expect(res.status).toBe(303);
    const page = await owner.get(res.location!);
    expect(textOf(page.html)).toContain(`The callback ${event!.id} is queued for delivery again. Reference: OK.13.00`);
    const [queued] = await db().select().from(outboxEvents).where(eq(outboxEvents.id, event!.id));
    expect(queued!.callbackState).toBe('pending');
    expect(await audited('event.resent')).toContainEqual({ email: acmeOwner.email, target: `${event!.id} (payment.succeeded)` });
  });

  it('refuses to resend an event of another payment from this page', async () => {
    const p = await createPayment(served.t, { amount: '20.00' });
    const elsewhere = await createPayment(served.t, { amount: '21.00', callbackUrl: 'https://merchant.example/hooks/elsewhere' });
    const [event] = await db().select().from(outboxEvents).where(eq(outboxEvents.callbackUrl, 'https://merchant.example/hooks/elsewhere'));
    expect(elsewhere.id).not.toBe(p.id);
    const owner = await asOwner();
    const res = await owner.post(`/console/payments/${p.id}`, { action: 'resend', event: event!.id });
    expect(res.status).toBe(422);
    expect(textOf(res.html)).toContain('The callback event is not an event of this payment');
  });

  it('resendEvent › given a payment, refuses an event of another payment (422) and queues nothing', async () => {
    await createPayment(served.t, { amount: '22.00', callbackUrl: 'https://merchant.example/hooks/other-payment' });
    const p = await createPayment(served.t, { amount: '23.00' });
    const [event] = await db().select().from(outboxEvents).where(eq(outboxEvents.callbackUrl, 'https://merchant.example/hooks/other-payment'));
    await db().update(outboxEvents).set({ callbackState: 'failed', callbackNextAt: null }).where(eq(outboxEvents.id, event!.id));
    const integrator = { id: event!.integratorId, defaultCallbackUrl: null };
    const refused = await resendEvent(served.t.app, integrator, event!.id, { transactionId: p.id }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'ER.02.30', messages: { event: ['is not an event of this payment'] } });
    const [after] = await db().select().from(outboxEvents).where(eq(outboxEvents.id, event!.id));
    expect(after!.callbackState).toBe('failed');
  });

  it('lets staff refund too', async () => {
    const staff = await signedIn(acmeStaff);
    const p = await createPayment(served.t, { amount: '15.00' });
    const path = `/console/payments/${p.id}`;
    expect((await staff.get('/console/payments')).status).toBe(200);
    const res = await staff.postConfirmed(path, { action: 'refund', kind: 'full', reason: 'Staff refund', nonce: nonceOf((await staff.get(path)).html) });
    expect(res.status).toBe(303);
    expect(await refundsOf(p.id)).toHaveLength(1);
    expect((await audited('refund.requested')).some((e) => e.email === acmeStaff.email && e.target?.includes(p.id))).toBe(true);
  });
});

describe('console › another integrator and CSRF', () => {
  it('answers 404 for another integrator’s payment, for GET and POST alike, and refunds nothing', async () => {
    const p = await createPayment(served.t, { amount: '30.00' });
    const other = await signedIn(otherOwner);
    const path = `/console/payments/${p.id}`;
    expect((await other.get(path)).status).toBe(404);
    const csrf = await other.csrf('/console/payments');
    const res = await other.post(path, { _csrf: csrf, action: 'refund', kind: 'full', reason: 'Not mine', nonce: 'AAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(res.status).toBe(404);
    expect(textOf(res.html)).toContain('Page not found');
    expect(await refundsOf(p.id)).toEqual([]);
  });

  it('refuses a refund form without the session’s CSRF token, or sent from another site (403), and refunds nothing', async () => {
    const p = await createPayment(served.t, { amount: '30.00' });
    const path = `/console/payments/${p.id}`;
    const owner = await asOwner();
    const nonce = nonceOf((await owner.get(path)).html);
    const forged = await owner.post(path, { _csrf: 'forged', action: 'refund', kind: 'full', reason: 'x', nonce });
    expect(forged.status).toBe(403);
    const crossSite = await owner.post(
      path,
      { action: 'refund', kind: 'full', reason: 'x', nonce },
      { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } },
    );
    expect(crossSite.status).toBe(403);
    expect(await refundsOf(p.id)).toEqual([]);
  });
});

describe('console › schedules and card registrations', () => {
  const createSchedule = async (overrides: Record<string, unknown> = {}) => {
    const res = await call(served.server.url, 'POST', '/api/v1/schedule', {
      body: { payload: await signSchedule(scheduleData(overrides), { iat: clock.now() }) },
    });
    expect(res.json.data.status_code).toBe('OK.12.00');
    return res.json.data.reference as string;
  };
  /** What the scheduler leaves after too many failed charges in a row. */
  const suspend = (reference: string) =>
    db().update(schedules).set({ status: 'suspended', suspendedAt: clock.now(), nextRunAt: null, consecutiveFailures: 3 }).where(eq(schedules.id, reference));

  it('lists schedules with the API’s filters and shows one with its runs', async () => {
    clock.set('2026-03-20T00:00:30Z');
    const active = await createSchedule({ payment: { amount: 150, currency: 'PHP', merchant_reference_id: 'plan-gold' } });
    const suspended = await createSchedule({ payment: { amount: 75, currency: 'PHP', merchant_reference_id: 'plan-silver' } });
    await suspend(suspended);
    const owner = await asOwner();
    const all = await owner.get('/console/schedules');
    expect(all.status).toBe(200);
    expect(all.html).toContain(active);
    expect(all.html).toContain(suspended);
    const onlySuspended = await owner.get('/console/schedules?status=suspended');
    expect(onlySuspended.html).toContain(suspended);
    expect(onlySuspended.html).not.toContain(active);
    const byReference = await owner.get('/console/schedules?q=plan-gold');
    expect(byReference.html).toContain(active);
    expect(byReference.html).not.toContain(suspended);
    const page = await owner.get(`/console/schedules/${active}`);
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain('₱150.00 active');
    expect(text).toContain('Recurrence Every minute, UTC+08:00');
    expect(text).toContain('Next charge 2026-03-20 08:01 UTC+08:00 Then 2026-03-20 08:02 UTC+08:00');
    // UTC on hover, the instant for machines.
    expect(page.html).toContain('<time datetime="2026-03-20T00:01:00.000Z" title="2026-03-20 00:01 UTC">2026-03-20 08:01 UTC+08:00</time>');
    const ran = await call(served.server.url, 'POST', `/api/v1/schedules/${active}/run`);
    expect(ran.json.data.status_code).toBe('OK.12.10');
    const withRun = await owner.get(`/console/schedules/${active}`);
    expect(textOf(withRun.html)).toContain(`2026-03-20 08:01 UTC+08:00 Paid 1 ${ran.json.data.transaction_id}`);
    expect(withRun.html).toContain(`href="/console/payments/${ran.json.data.transaction_id}"`);
    const charged = await owner.get(`/console/payments/${ran.json.data.transaction_id}`);
    expect(textOf(charged.html)).toContain(`Schedule ${active}`);
    // In the payments list, a scheduled charge links to its schedule.
    const listed = await owner.get(`/console/payments?q=${ran.json.data.transaction_id}`);
    expect(listed.html).toContain(`href="/console/schedules/${active}"`);
  });

  it('lists suspended schedules and those failing in a row on Home, never a healthy or cancelled one', async () => {
    clock.set('2026-03-23T00:00:30Z');
    const healthy = await createSchedule();
    const failing = await createSchedule();
    const suspended = await createSchedule();
    const cancelled = await createSchedule();
    await db().update(schedules).set({ consecutiveFailures: 2 }).where(eq(schedules.id, failing));
    await suspend(suspended);
    await db().update(schedules).set({ status: 'cancelled', cancelledAt: clock.now(), consecutiveFailures: 1 }).where(eq(schedules.id, cancelled));
    const owner = await asOwner();
    const home = await owner.get('/console');
    const section = /<section[^>]*aria-labelledby="schedules-attention"[\s\S]*?<\/section>/.exec(home.html)![0];
    const listed = [...section.matchAll(/href="\/console\/schedules\/([^"]+)"/g)].map((m) => m[1]);
    // Suspended first, then the failing ones.
    expect(listed.indexOf(suspended)).toBeGreaterThanOrEqual(0);
    expect(listed.indexOf(suspended)).toBeLessThan(listed.indexOf(failing));
    expect(listed).not.toContain(healthy);
    expect(listed).not.toContain(cancelled);
    const text = textOf(section);
    expect(text).toContain('Suspended after 3 failed charges in a row');
    expect(text).toContain('2 failed charges in a row');
  });

  it('resumes a suspended schedule from its next occurrence after now, audited; an active one is refused with ER.12.34', async () => {
    clock.set('2026-03-21T06:00:10Z');
    const reference = await createSchedule();
    await suspend(reference);
    clock.set('2026-03-22T07:30:20Z');
    const path = `/console/schedules/${reference}`;
    const owner = await asOwner();
    expect(textOf((await owner.get(path)).html)).toContain('Resume schedule');
    const res = await owner.post(path, { action: 'resume' });
    expect(res.status).toBe(303);
    const page = await owner.get(res.location!);
    expect(textOf(page.html)).toContain('The schedule is active again; its next charge is 2026-03-22 15:31 UTC+08:00. Reference: OK.12.11');
    const [row] = await db().select().from(schedules).where(eq(schedules.id, reference));
    expect(row).toMatchObject({ status: 'active', consecutiveFailures: 0, suspendedAt: null, nextRunAt: new Date('2026-03-22T07:31:00Z') });
    expect(await audited('schedule.resumed')).toContainEqual({ email: acmeOwner.email, target: reference });
    const again = await owner.post(path, { action: 'resume' });
    expect(again.status).toBe(409);
    expect(textOf(again.html)).toContain('Schedule is not suspended');
    expect(textOf(again.html)).toContain('Reference: ER.12.34');
  });

  it('shows a customer’s payments, card registrations and schedules, reached from a payment, and only this merchant’s', async () => {
    clock.set('2026-03-24T00:00:30Z');
    await db().update(cardRegistrations).set({ customerEmail: 'Lourdes.Card@Example.com' }).where(eq(cardRegistrations.reference, ACME_CARD));
    try {
      const reference = await createSchedule();
      const theirs = await createPayment(served.t, { customerEmail: 'lourdes.card@example.com', amount: '75.00' });
      const someoneElse = await createPayment(served.t, { customerEmail: 'not.lourdes@example.com' });
      const foreign = await createPayment(served.t, { integrator: 'Other Shop', currency: 'USD', customerEmail: 'lourdes.card@example.com' });
      const owner = await asOwner();
      const payment = await owner.get(`/console/payments/${theirs.id}`);
      const href = /href="(\/console\/customer\?email=[^"]+)"/.exec(payment.html)?.[1];
      expect(href).toBe('/console/customer?email=lourdes.card%40example.com');
      const page = await owner.get(href!);
      expect(page.status).toBe(200);
      expect(listedIds(page.html)).toContain(theirs.id);
      expect(listedIds(page.html)).not.toContain(someoneElse.id);
      expect(listedIds(page.html)).not.toContain(foreign.id);
      const text = textOf(page.html);
      expect(text).toContain('Card registrations Card registrations of lourdes.card@example.com, newest first Created Card Status Reference');
      expect(text).toMatch(/Visa ···· 4242 \(expires \d{2}\/\d{4}\) active/);
      expect(page.html).toContain(`href="/console/schedules/${reference}"`);
      // Another integrator's owner finds nothing of this merchant's customer.
      const other = await signedIn(otherOwner);
      const theirView = await other.get(href!);
      expect(listedIds(theirView.html)).toEqual([foreign.id]);
      expect(theirView.html).not.toContain(reference);
      expect(textOf(theirView.html)).toContain('No card registered with this e-mail.');
    } finally {
      await db().update(cardRegistrations).set({ customerEmail: null }).where(eq(cardRegistrations.reference, ACME_CARD));
    }
  });

  it('refuses a customer look-up that is not an e-mail address, beside its field', async () => {
    const owner = await asOwner();
    const bad = await owner.get(`/console/customer?email=${encodeURIComponent('"><script>alert(1)</script>')}`);
    expect(bad.status).toBe(422);
    expect(textOf(bad.html)).toContain('Customer e-mail must be an e-mail address');
    // Shown back inside its field's value only: the quote cannot close the attribute.
    expect(bad.html).not.toContain('"><script>alert(1)');
    expect(bad.html).toContain('value="&quot;><script>alert(1)</script>"');
    expect((await owner.get('/console/customer')).status).toBe(200);
    expect((await new ConsoleClient(served.server.url).get('/console/customer?email=a%40b.c')).status).toBe(303);
  });

  it('cancels a schedule, audited; it cannot be resumed afterwards', async () => {
    const reference = await createSchedule();
    const path = `/console/schedules/${reference}`;
    const owner = await asOwner();
    const res = await owner.postConfirmed(path, { action: 'cancel' });
    expect(res.status).toBe(303);
    expect(textOf((await owner.get(res.location!)).html)).toContain('The schedule is cancelled; it charges nothing more. Reference: OK.12.20');
    const [row] = await db().select().from(schedules).where(eq(schedules.id, reference));
    expect(row!.status).toBe('cancelled');
    expect(await audited('schedule.cancelled')).toContainEqual({ email: acmeOwner.email, target: reference });
    const api = await call(served.server.url, 'POST', `/api/v1/schedules/${reference}/resume`);
    expect(api.status).toBe(409);
    expect(api.json.data.status_code).toBe('ER.12.34');
    expect(api.json.messages.reference[0]).toContain('cancelled');
  });

  it('resumes through the API too: POST /api/v1/schedules/{reference}/resume answers OK.12.11 with the next run in the schedule’s offset', async () => {
    clock.set('2026-03-23T01:02:03Z');
    const reference = await createSchedule();
    await suspend(reference);
    const foreign = await call(served.server.url, 'POST', `/api/v1/schedules/${reference}/resume`, { token: OTHER_TOKEN });
    expect(foreign.status).toBe(404);
    const res = await call(served.server.url, 'POST', `/api/v1/schedules/${reference}/resume`);
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ status_code: 'OK.12.11', reference, status: 'active', next_run_at: '2026-03-23T09:03:00.000+08:00' });
  });

  it('answers 404 for another integrator’s schedule, GET and POST, and changes nothing; staff may cancel', async () => {
    const reference = await createSchedule();
    const other = await signedIn(otherOwner);
    expect((await other.get(`/console/schedules/${reference}`)).status).toBe(404);
    const csrf = await other.csrf('/console/schedules');
    const res = await other.post(`/console/schedules/${reference}`, { _csrf: csrf, action: 'cancel', confirmed: 'yes' });
    expect(res.status).toBe(404);
    expect((await db().select().from(schedules).where(eq(schedules.id, reference)))[0]!.status).toBe('active');
    const staff = await signedIn(acmeStaff);
    expect((await staff.postConfirmed(`/console/schedules/${reference}`, { action: 'cancel' })).status).toBe(303);
    expect((await db().select().from(schedules).where(eq(schedules.id, reference)))[0]!.status).toBe('cancelled');
  });

  it('lists card registrations with status, customer, brand and last 4 — and only the integrator’s own', async () => {
    const owner = await asOwner();
    const page = await owner.get('/console/card-registrations');
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain('Juan Dela Cruz');
    expect(text).toMatch(/Visa ···· 4242 \(expires 12\/\d{4}\) active/);
    expect(text).not.toContain('4444');
    expect(textOf((await owner.get('/console/card-registrations?status=deleted')).html)).toContain('No card registration matches these filters.');
    expect(textOf((await owner.get('/console/card-registrations?email=nope')).html)).toContain('Customer e-mail must be an e-mail address');
  });
});
