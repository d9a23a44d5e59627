import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEvents } from '../../src/db/schema.ts';
import { eventsOfTransaction } from '../../src/domain/notifications/events.ts';
import { call, createTestApp, defaultSeed, provision, startTestServer, type TestApp } from '../support/app.ts';
import { CARDS, createPayment } from '../support/payments.ts';

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

const rows = () => t.app.db.select({ id: outboxEvents.id, paymentId: outboxEvents.paymentId, data: outboxEvents.data }).from(outboxEvents);

describe('outbox › events are looked up by the ids written with them', () => {
  it('a payment and its refund are written naming the payment their data reports as transaction_id', async () => {
    const p = await createPayment(t, { amount: '100.00', card: CARDS.mastercard });
    const res = await call(server.url, 'POST', '/api/v1/refund', { body: { transaction_id: p.id, notify_user: 'false', reason: 'Returned' } });
    expect(res.json).toMatchObject({ status: 200 });
    const written = await rows();
    expect(written.filter((r) => r.data.transaction_id === p.id).length).toBeGreaterThanOrEqual(2);
    for (const r of written) expect(r.paymentId).toBe(r.data.transaction_id ?? null);
    const timeline = await eventsOfTransaction(t.app, { id: p.integratorId }, p.id);
    expect(timeline.map((e) => e.event.type)).toEqual(['payment.succeeded', 'refund.succeeded']);
  });

  it('the migration fills payment_id of events written before it from their data', async () => {
    const before = await rows();
    await t.app.db.update(outboxEvents).set({ paymentId: null });
    const migration = readFileSync(resolve(import.meta.dirname, '../../drizzle/0025_outbox_lookup_columns.sql'), 'utf8');
    const backfill = migration.split('--> statement-breakpoint').find((s) => /^\s*(--[^\n]*\n\s*)*UPDATE/i.test(s));
    expect(backfill).toBeDefined();
    await t.app.db.execute(sql.raw(backfill!));
    const after = await rows();
    expect(after.map((r) => [r.id, r.paymentId]).sort()).toEqual(before.map((r) => [r.id, r.paymentId]).sort());
    expect(after.some((r) => r.paymentId !== null)).toBe(true);
    const [one] = await t.app.db.select().from(outboxEvents).where(eq(outboxEvents.type, 'refund.succeeded'));
    expect(one?.paymentId).toBe(one?.data.transaction_id);
  });
});
