import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEvents } from '../../../src/db/schema.ts';
import { eventsOfTransaction } from '../../../src/domain/notifications/events.ts';
import { createMailer, mailDir } from '../../../src/workers/mailer.ts';
import { call, createTestApp, defaultSeed, provision, startTestServer, type TestApp } from '../../support/app.ts';
import { CARDS, createPayment } from '../../support/payments.ts';

/**
 * Outbox rows carry the payment they report on as a column (payment_id), written with the event
 * and indexed, so a payment's timeline is found without reading the integrator's wire format.
 */
let t: TestApp;
let server: { url: string; close(): Promise<void> };

beforeAll(async () => {
  t = await createTestApp({ now: () => new Date('2026-05-04T08:00:00.000Z') });
  const seed = defaultSeed();
  seed.integrators[0]!.refund_capabilities = { mastercard: 'full' };
  await provision(t, seed);
  server = await startTestServer(t.app);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const rows = () =>
  t.app.db.select({ id: outboxEvents.id, paymentId: outboxEvents.paymentId, emailView: outboxEvents.emailView, data: outboxEvents.data }).from(outboxEvents);
const statement = (pattern: RegExp) => {
  const migration = readFileSync(resolve(import.meta.dirname, '../../../drizzle/0025_outbox_lookup_columns.sql'), 'utf8');
  return migration.split('--> statement-breakpoint').find((s) => pattern.test(s));
};

describe('outbox › events are looked up by the ids written with them', () => {
  it('a payment and its refund are written naming the payment their data reports as transaction_id', async () => {
    const p = await createPayment(t, { amount: '100.00', card: CARDS.mastercard, customerEmail: 'ana@example.com', notifyUser: true });
    const res = await call(server.url, 'POST', '/api/v1/refund', { body: { transaction_id: p.id, notify_user: 'true', reason: 'Returned' } });
    expect(res.json).toMatchObject({ status: 200 });
    const written = await rows();
    expect(written.filter((r) => r.data.transaction_id === p.id).length).toBeGreaterThanOrEqual(2);
    for (const r of written) expect(r.paymentId).toBe(r.data.transaction_id ?? null);
    const timeline = await eventsOfTransaction(t.app, { id: p.integratorId }, p.id);
    expect(timeline.map((e) => e.event.type).sort()).toEqual(['payment.succeeded', 'refund.succeeded']);
  });

  it('the migration fills payment_id and email_view of events written before it from their data', async () => {
    const before = await rows();
    expect(before.filter((r) => r.emailView !== null).length).toBeGreaterThanOrEqual(2);
    await t.app.db.update(outboxEvents).set({ paymentId: null, emailView: null });
    for (const column of [/SET "payment_id"/, /SET "email_view"/]) {
      const backfill = statement(column);
      expect(backfill).toBeDefined();
      await t.app.db.execute(sql.raw(backfill!));
    }
    const after = await rows();
    // The payment method (migration 0026) and what was bought (0036) came into the e-mail's view
    // later: events written before them have neither, and their e-mail says "Card" and lists no
    // items, as it did then.
    const withoutMethod = (view: (typeof before)[number]['emailView']) => {
      if (!view) return view;
      const { paymentMethod: _later, sale: _laterStill, ...rest } = view;
      return rest;
    };
    const byId = (list: typeof before) => Object.fromEntries(list.map((r) => [r.id, { paymentId: r.paymentId, emailView: withoutMethod(r.emailView) }]));
    expect(byId(after)).toEqual(byId(before));
  });

  it('the mailer says what the event’s view says, whatever its wire data holds', async () => {
    await t.app.db.update(outboxEvents).set({ data: {} }).where(eq(outboxEvents.type, 'payment.succeeded'));
    const mailer = createMailer(t.app);
    try {
      expect(await mailer.sendDue()).toBeGreaterThanOrEqual(1);
    } finally {
      await mailer.close();
    }
    const receipt = readdirSync(mailDir(t.app)).find((f) => f.includes('payment.succeeded'));
    const mail = await simpleParser(readFileSync(join(mailDir(t.app), receipt!)));
    expect(mail.subject).toBe('Payment received: ₱100.00 — Acme Books');
    expect(mail.text).toMatch(/Transaction ID:\s+txn_/);
    expect(mail.text).toContain('Mastercard •••• 4444');
  });
});
