import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import { completeCardRegistration, createCardRegistration } from '../../../src/domain/cards/service.ts';
import { findIntegratorByToken } from '../../../src/domain/integrators/service.ts';
import { createSchedule } from '../../../src/domain/schedules/service.ts';
import { runSchedulerTick } from '../../../src/domain/schedules/tick.ts';
import { createCallbackSender } from '../../../src/workers/callbacks.ts';
import { createMailer, mailDir } from '../../../src/workers/mailer.ts';
import { call, createTestApp, defaultSeed, provision, startTestServer, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { CARD_EXP, CARD_EXPIRY } from '../../support/cards.ts';
import { scheduleData, signSchedule, testClock } from '../../support/schedules.ts';
import { startWebhookReceiver, verify, type WebhookReceiver } from '../../support/webhook-receiver.ts';

/**
 * The newcomer's check of issue 6: with callback_url pointing at a local receiver (and
 * PAYLINK_ALLOW_PRIVATE_CALLBACKS=1, the test default), a paid link, a refund and a scheduled
 * charge each arrive as signed events that verify, and the customer e-mails appear as .eml files.
 */
let t: TestApp | undefined;
let server: { url: string; close(): Promise<void> } | undefined;
let receiver: WebhookReceiver | undefined;

afterAll(async () => {
  await server?.close();
  await receiver?.close();
  await t?.close();
});

describe('callbacks › newcomer journey', () => {
  it('a payment, a refund and a scheduled charge arrive signed, and the customer e-mails are written as .eml files', async () => {
    const clock = testClock(new Date());
    t = await createTestApp({ now: clock.now });
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const seed = defaultSeed();
    seed.integrators[0]!.webhook_secret = secret;
    await provision(t, seed);
    server = await startTestServer(t.app);
    receiver = await startWebhookReceiver();
    const callbackUrl = `${receiver.url}/paylink`;

    // A dynamic link paid with a test card.
    const link = await call(server.url, 'POST', '/pay/acme-books', {
      token: null,
      body: {
        key: TEST_TOKEN,
        payment: { merchant_reference_id: 'order-7' },
        route: { callback_url: callbackUrl, notify_user: true },
        customer: { contact: { email: 'juan@example.com' } },
      },
    });
    expect(link.status, link.text).toBe(200);
    const token = new URL(link.json.link).pathname.split('/')[2]!;
    const paid = await call(server.url, 'POST', `/checkout/${token}/pay`, {
      token: null,
      body: {
        fields: { 'customer.first_name': 'Juan', 'customer.last_name': 'Dela Cruz', 'customer.contact.email': 'juan@example.com' },
        card: { number: '4242424242424242', expiry: CARD_EXPIRY, cvc: '123', name: 'Juan Dela Cruz' },
      },
    });
    expect(paid.json.data.status_code, paid.text).toBe('OK.03.00');
    const txn = paid.json.data.transaction_id as string;

    // A partial refund, the customer notified.
    const refund = await call(server.url, 'POST', '/api/v1/refund', {
      body: { transaction_id: txn, notify_user: true, reason: 'One book was damaged', amount: '50.00' },
    });
    expect(refund.json.data.status_code, refund.text).toBe('OK.04.00');

    // A schedule on a card the customer registered, charged when due.
    const integrator = (await findIntegratorByToken(t.app.db, TEST_TOKEN))!;
    const registration = await createCardRegistration(t.app, integrator, { customer: { name: 'Ana', email: 'ana@example.com' } });
    await completeCardRegistration(t.app, registration.link.split('/').pop()!, { number: '4242424242424242', ...CARD_EXP, cvc: '123' });
    const schedule = await createSchedule(
      t.app,
      integrator,
      await signSchedule(scheduleData({ credit_card: { reference: registration.reference }, route: { callback_url: callbackUrl, notify_user: true } }), {
        iat: clock.now(),
      }),
    );
    const nextMinute = Math.ceil((clock.now().getTime() + 1) / 60_000) * 60_000;
    clock.set(new Date(nextMinute + 250));
    expect((await runSchedulerTick(t.app)).outcomes.succeeded).toBe(1);

    // The workers deliver everything.
    const sender = createCallbackSender(t.app);
    const mailer = createMailer(t.app);
    while ((await sender.deliverDue()) > 0);
    while ((await mailer.sendDue()) > 0);
    await sender.close();
    await mailer.close();

    const byType = new Map(receiver.received.map((r) => [JSON.parse(r.body).type as string, r]));
    expect([...byType.keys()].sort()).toEqual(['payment.succeeded', 'refund.succeeded', 'schedule.charge_succeeded', 'schedule.created']);
    for (const req of receiver.received) {
      expect(req.path).toBe('/paylink');
      expect(verify(secret, req)).toBeTruthy();
    }
    expect(JSON.parse(byType.get('payment.succeeded')!.body).data).toMatchObject({
      transaction_id: txn,
      merchant_reference_id: 'order-7',
      amount: '250.00',
      currency: 'PHP',
      status: 'succeeded',
    });
    expect(JSON.parse(byType.get('refund.succeeded')!.body).data).toMatchObject({ transaction_id: txn, amount: '50.00', currency: 'PHP' });
    expect(JSON.parse(byType.get('schedule.charge_succeeded')!.body).data).toMatchObject({
      schedule_reference: schedule.reference,
      amount: '150.00',
      currency: 'PHP',
    });

    const dir = mailDir(t.app);
    const mails = await Promise.all(readdirSync(dir).map(async (f) => simpleParser(readFileSync(join(dir, f)))));
    const summary = mails.map((m) => [(m.to as { text: string }).text, m.subject]).sort();
    expect(summary).toEqual([
      ['ana@example.com', 'Payment received: ₱150.00 — Acme Books'],
      ['juan@example.com', 'Payment received: ₱250.00 — Acme Books'],
      ['juan@example.com', 'Refund of ₱50.00 — Acme Books'],
    ]);
    for (const mail of mails) expect(mail.text).toMatch(/Visa •••• 4242/);
  });
});
