import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { presentRefund } from '../../../src/api/presenters/refunds.ts';
import { transactionView } from '../../../src/api/presenters/transactions.ts';
import { createApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { outboxEvents, payments, refunds, sandboxCharges } from '../../../src/db/schema.ts';
import { findIntegratorByToken } from '../../../src/domain/integrators/service.ts';
import { findTransaction } from '../../../src/domain/payments/query.ts';
import { recoverPendingRefunds } from '../../../src/domain/refunds/recovery.ts';
import { beginRefund } from '../../../src/domain/refunds/reserve.ts';
import { refundPayment } from '../../../src/domain/refunds/service.ts';
import { acquirerRefundKey } from '../../../src/domain/refunds/settle.ts';
import { createLogger } from '../../../src/log.ts';
import { createTestApp, provision, sandboxOf, TEST_TOKEN, type TestApp, testDb } from '../../support/app.ts';
import { createPayment } from '../../support/payments.ts';

/**
 * "Restarts": a process that dies between tx1 (refund pending, amount reserved) and tx2 must
 * neither lose nor double money. Each test stops after tx1 (or after the acquirer call), closes
 * the database, opens it again in a new app, and recovers.
 */
let clock = new Date('2026-07-01T09:00:00.000Z');
const now = () => clock;
const open: TestApp[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  clock = new Date('2026-07-01T09:00:00.000Z');
});

interface Store {
  masterKey: string;
  databaseUrl?: string;
  pgliteDir?: string;
}

/** A fresh database that survives closing the app: a PGlite data directory on disk, or a PostgreSQL database. */
async function newStore(): Promise<Store> {
  const masterKey = randomBytes(32).toString('base64');
  if (testDb === 'postgres') {
    const first = await createTestApp({ env: { PAYLINK_MASTER_KEY: masterKey } });
    const databaseUrl = first.databaseUrl!;
    await first.close();
    return { masterKey, databaseUrl };
  }
  const pgliteDir = mkdtempSync(join(tmpdir(), 'paylink-recovery-'));
  dirs.push(pgliteDir);
  return { masterKey, pgliteDir };
}

/** Opens (or reopens) the store in a new app, like a process starting. */
async function start(store: Store): Promise<TestApp> {
  let t: TestApp;
  if (store.databaseUrl) {
    t = await createTestApp({ databaseUrl: store.databaseUrl, env: { PAYLINK_MASTER_KEY: store.masterKey }, now });
  } else {
    const config = loadConfig({ PAYLINK_DATA_DIR: store.pgliteDir!, PAYLINK_MASTER_KEY: store.masterKey, LOG_LEVEL: 'silent' });
    const app = await createApp({ config, now, log: createLogger('silent') });
    t = { app, logs: [], dataDir: store.pgliteDir!, close: () => app.database.close() };
  }
  open.push(t);
  return t;
}

/** The process dies: its database connection goes away without anything else running. */
async function crash(t: TestApp) {
  open.splice(open.indexOf(t), 1);
  await t.close();
}

async function state(t: TestApp, paymentId: string) {
  const [payment] = await t.app.db.select().from(payments).where(eq(payments.id, paymentId));
  const [charge] = await t.app.db.select().from(sandboxCharges).where(eq(sandboxCharges.id, payment!.acquirerReference!));
  const rows = await t.app.db.select().from(refunds).where(eq(refunds.paymentId, paymentId));
  const events = await t.app.db
    .select()
    .from(outboxEvents)
    .where(and(sql`${outboxEvents.type} like 'refund.%'`, sql`${outboxEvents.data}->>'transaction_id' = ${paymentId}`));
  return { payment: payment!, acquirerRefunded: charge!.refundedMinor, refunds: rows, events };
}

const afterRecoveryDelay = () => {
  clock = new Date(clock.getTime() + 61_000);
};

async function preparePayment(store: Store, amount = '100.00') {
  const t = await start(store);
  await provision(t);
  const integrator = (await findIntegratorByToken(t.app.db, TEST_TOKEN))!;
  const payment = await createPayment(t, { amount });
  return { t, integrator, payment };
}

describe('refund recovery', () => {
  it('refund › a refund interrupted after it was reserved is finished once after a restart', async () => {
    const store = await newStore();
    const { t, integrator, payment } = await preparePayment(store);
    const { refund } = await beginRefund(t.app, integrator, { transactionId: payment.id, notifyUser: true, reason: 'Crash test', amount: '40.00' });
    expect(refund.status).toBe('pending');
    await crash(t);

    const restarted = await start(store);
    const before = await state(restarted, payment.id);
    expect(before.payment).toMatchObject({ refundedMinor: 0n, refundReservedMinor: 4_000n, refundCount: 1 });
    expect(before.acquirerRefunded).toBe(0n);
    expect(transactionView(await findTransaction(restarted.app, integrator, payment.id))).toMatchObject({
      pending_refund_amount: '40.00',
      refundable_amount: '60.00',
    });
    // Too young to be presumed interrupted: nothing happens yet.
    expect(await recoverPendingRefunds(restarted.app)).toBe(0);

    afterRecoveryDelay();
    expect(await recoverPendingRefunds(restarted.app)).toBe(1);
    expect(await recoverPendingRefunds(restarted.app)).toBe(0);
    const after = await state(restarted, payment.id);
    expect(after.payment).toMatchObject({ refundedMinor: 4_000n, refundReservedMinor: 0n, refundCount: 1 });
    expect(after.acquirerRefunded).toBe(4_000n);
    expect(after.refunds).toMatchObject([{ id: refund.id, status: 'succeeded', succeededAt: clock }]);
    expect(after.events.map((e) => e.type)).toEqual(['refund.succeeded']);
  });

  it('refund › a refund interrupted after the acquirer moved the money is recorded without moving it again', async () => {
    const store = await newStore();
    const { t, integrator, payment } = await preparePayment(store);
    const { refund } = await beginRefund(t.app, integrator, { transactionId: payment.id, notifyUser: false, reason: 'Crash test', amount: '40.00' });
    const acquirerResult = await sandboxOf(t.app).acquirer.refund(
      { chargeId: payment.acquirerReference!, amountMinor: refund.amountMinor, currency: refund.currency },
      { idempotencyKey: acquirerRefundKey(refund.id) },
    );
    expect(acquirerResult.status).toBe('succeeded');
    await crash(t);

    const restarted = await start(store);
    expect((await state(restarted, payment.id)).acquirerRefunded).toBe(4_000n);
    afterRecoveryDelay();
    expect(await recoverPendingRefunds(restarted.app)).toBe(1);
    const after = await state(restarted, payment.id);
    expect(after.acquirerRefunded).toBe(4_000n);
    expect(after.payment).toMatchObject({ refundedMinor: 4_000n, refundReservedMinor: 0n });
    expect(after.refunds).toMatchObject([{ status: 'succeeded', acquirerReference: (acquirerResult as { refundId: string }).refundId }]);
  });

  it('refund › a retry with the same Idempotency-Key resumes the interrupted refund instead of starting another', async () => {
    const store = await newStore();
    const { t, integrator, payment } = await preparePayment(store);
    const request = { transactionId: payment.id, notifyUser: true, reason: 'Crash test', amount: '40.00', idempotencyKey: 'client-key-7' };
    const { refund } = await beginRefund(t.app, integrator, request);
    await crash(t);

    const restarted = await start(store);
    const reply = presentRefund(await refundPayment(restarted.app, integrator, request));
    expect(reply).toMatchObject({ code: 'OK.04.00', data: { refund_id: refund.id, amount: '40.00', refunded_amount: '40.00', refundable_amount: '60.00' } });
    const again = presentRefund(await refundPayment(restarted.app, integrator, request));
    expect(again.data.refund_id).toBe(refund.id);
    const after = await state(restarted, payment.id);
    expect(after.refunds).toHaveLength(1);
    expect(after.acquirerRefunded).toBe(4_000n);
    expect(after.payment.refundedMinor).toBe(4_000n);
    expect(after.events).toHaveLength(1);
  });

  it('refund › the next refund of the payment first finishes a stale pending refund, then refunds the rest', async () => {
    const store = await newStore();
    const { t, integrator, payment } = await preparePayment(store);
    await beginRefund(t.app, integrator, { transactionId: payment.id, notifyUser: true, reason: 'Crash test', amount: '40.00' });
    await crash(t);

    const restarted = await start(store);
    afterRecoveryDelay();
    const reply = presentRefund(await refundPayment(restarted.app, integrator, { transactionId: payment.id, notifyUser: true, reason: 'The rest' }));
    expect(reply).toMatchObject({ code: 'OK.02.00', data: { amount: '60.00', refunded_amount: '100.00', refundable_amount: '0.00' } });
    const after = await state(restarted, payment.id);
    expect(after.acquirerRefunded).toBe(10_000n);
    expect(after.payment).toMatchObject({ refundedMinor: 10_000n, refundReservedMinor: 0n, refundCount: 2 });
    expect(after.refunds.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
  });

  it('refund › an acquirer call that gets no answer leaves the refund pending, and recovery finishes it once', async () => {
    const store = await newStore();
    const { t, integrator, payment } = await preparePayment(store);
    const acquirer = sandboxOf(t.app).acquirer;
    sandboxOf(t.app).acquirer = {
      ...acquirer,
      name: acquirer.name,
      verifyCard: acquirer.verifyCard.bind(acquirer),
      charge: acquirer.charge.bind(acquirer),
      chargeSavedCards: acquirer.chargeSavedCards.bind(acquirer),
      // The acquirer moves the money, but its answer is lost on the way back.
      refund: async (req, opts) => {
        await acquirer.refund(req, opts);
        throw new Error('acquirer timeout');
      },
    };
    await expect(refundPayment(t.app, integrator, { transactionId: payment.id, notifyUser: true, reason: 'Timeout', amount: '25.00' })).rejects.toThrow(
      'acquirer timeout',
    );
    sandboxOf(t.app).acquirer = acquirer;
    expect((await state(t, payment.id)).payment).toMatchObject({ refundedMinor: 0n, refundReservedMinor: 2_500n });

    afterRecoveryDelay();
    expect(await recoverPendingRefunds(t.app)).toBe(1);
    const after = await state(t, payment.id);
    expect(after.acquirerRefunded).toBe(2_500n);
    expect(after.payment).toMatchObject({ refundedMinor: 2_500n, refundReservedMinor: 0n });
    expect(after.refunds.map((r) => r.status)).toEqual(['succeeded']);
  });

  it('refund › an amount held by a pending refund cannot be refunded again meanwhile', async () => {
    const store = await newStore();
    const { t, integrator, payment } = await preparePayment(store);
    await beginRefund(t.app, integrator, { transactionId: payment.id, notifyUser: true, reason: 'In flight', amount: '70.00' });
    const full = presentRefund(await refundPayment(t.app, integrator, { transactionId: payment.id, notifyUser: true, reason: 'Everything' }));
    expect(full.data).toMatchObject({ amount: '30.00', refundable_amount: '0.00' });
    await expect(refundPayment(t.app, integrator, { transactionId: payment.id, notifyUser: true, reason: 'More', amount: '0.01' })).rejects.toMatchObject({
      code: 'ER.20.20',
    });
    afterRecoveryDelay();
    await recoverPendingRefunds(t.app);
    const after = await state(t, payment.id);
    expect(after.acquirerRefunded).toBe(10_000n);
    expect(after.payment).toMatchObject({ refundedMinor: 10_000n, refundReservedMinor: 0n });
  });
});
