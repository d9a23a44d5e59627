import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Acquirer } from '../../../src/acquirer/acquirer.ts';
import type { PaylinkApp } from '../../../src/app.ts';
import { auditLog, integrators, outboxEvents, payments, refunds, sandboxCharges } from '../../../src/db/schema.ts';
import type { Actor } from '../../../src/domain/accounts/audit.ts';
import { findIntegratorByToken } from '../../../src/domain/integrators/service.ts';
import type { Payment } from '../../../src/domain/payments/record.ts';
import { recoverPendingRefunds, settleProviderRefund } from '../../../src/domain/refunds/recovery.ts';
import { beginRefund } from '../../../src/domain/refunds/reserve.ts';
import { type RefundRequest, refundPayment } from '../../../src/domain/refunds/service.ts';
import { createTestApp, defaultSeed, OTHER_TOKEN, provision, sandboxOf, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { CARDS, createPayment } from '../../support/payments.ts';

/**
 * The refund service called directly (as the API route, the console and the workers call it),
 * against a real database and the sandbox acquirer: the rows, balances, events, audit entries and
 * exact refusals each step writes. Acme Books refunds Mastercard in FULL only; the limits are
 * lowered (3 refunds, a 30-day window, keys valid for an hour) so their edges are cheap to reach.
 */
let clock = new Date('2026-08-03T10:00:00.000Z');
const tick = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
const env = { PAYLINK_REFUND_MAX_COUNT: '3', PAYLINK_REFUND_WINDOW_DAYS: '30', PAYLINK_IDEMPOTENCY_TTL_SECONDS: '3600', PAYLINK_REFUND_RECOVERY_SECONDS: '60' };

async function startApp(): Promise<TestApp> {
  const t = await createTestApp({ now: () => clock, env });
  const seed = defaultSeed();
  seed.integrators[0]!.refund_capabilities = { mastercard: 'full' };
  await provision(t, seed);
  return t;
}

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t?.close();
});

const acme = async (app = t) => (await findIntegratorByToken(app.app.db, TEST_TOKEN))!;
const paymentRow = async (id: string, app = t): Promise<Payment> => (await app.app.db.select().from(payments).where(eq(payments.id, id)))[0]!;
const refundRows = (paymentId: string, app = t) => app.app.db.select().from(refunds).where(eq(refunds.paymentId, paymentId)).orderBy(refunds.createdAt);
const refundEvents = (paymentId: string, app = t) =>
  app.app.db
    .select()
    .from(outboxEvents)
    .where(and(sql`${outboxEvents.type} like 'refund.%'`, sql`${outboxEvents.data}->>'transaction_id' = ${paymentId}`))
    .orderBy(outboxEvents.createdAt);
const acquirerRefunded = async (p: Payment, app = t) =>
  (await app.app.db.select().from(sandboxCharges).where(eq(sandboxCharges.id, p.acquirerReference!)))[0]!.refundedMinor;
const request = (transactionId: string, extra: Partial<RefundRequest> = {}): RefundRequest => ({
  transactionId,
  notifyUser: true,
  reason: 'Customer request',
  ...extra,
});
/** The refusal a call throws, as the API would word it. */
const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'expected a refusal').toBeDefined();
  const { code, messages } = error as { code: string; messages: unknown };
  return { code, messages };
};
/**
 * Runs `body` with the sandbox acquirer's refund call replaced by `refund` (which may call the real
 * one): to make something happen while a refund is at the acquirer, or to see how often it is asked.
 */
async function withAcquirerRefund<T>(
  app: PaylinkApp,
  refund: (real: Acquirer['refund'], ...args: Parameters<Acquirer['refund']>) => ReturnType<Acquirer['refund']>,
  body: () => Promise<T>,
) {
  const real = sandboxOf(app).acquirer;
  sandboxOf(app).acquirer = Object.assign(Object.create(Object.getPrototypeOf(real)), real, {
    refund: (...args: Parameters<Acquirer['refund']>) => refund(real.refund.bind(real), ...args),
  });
  try {
    return await body();
  } finally {
    sandboxOf(app).acquirer = real;
  }
}
/** Opens a few pooled connections first (PostgreSQL), so requests started together also reach the database together. */
const warmPool = () => Promise.all([1, 2, 3, 4].map(() => t.app.db.execute(sql`select pg_sleep(0.05)`)));
const logEntries = (msg: string, app = t) => app.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.msg === msg);

describe('refund service: a refund through the sandbox', () => {
  it('refund › a PARTIAL refund reserves, moves and records the amount, and the payment keeps the rest', async () => {
    const integrator = await acme();
    const p = await createPayment(t, { amount: '100.00', customerEmail: 'ana@example.com', callbackUrl: 'https://shop.example/cb' });
    const before = await paymentRow(p.id);
    tick(1000);
    const outcome = await refundPayment(t.app, integrator, request(p.id, { amount: '40.00', reason: 'Wrong size' }));

    expect(outcome.refund).toEqual({
      id: expect.stringMatching(/^rfd_/),
      paymentId: p.id,
      integratorId: integrator.id,
      type: 'partial',
      status: 'succeeded',
      amountMinor: 4_000n,
      currency: 'PHP',
      reason: 'Wrong size',
      notifyUser: true,
      acquirerReference: expect.stringMatching(/^re_/),
      failureCode: null,
      failureMessage: null,
      idempotencyKey: null,
      // An API refund: no console user asked for it.
      requestedByUserId: null,
      createdAt: clock,
      succeededAt: clock,
      failedAt: null,
    });
    expect(await refundRows(p.id)).toEqual([outcome.refund]);
    const after = await paymentRow(p.id);
    expect(outcome.payment).toEqual(after);
    expect(after).toEqual({
      ...before,
      refundedMinor: 4_000n,
      refundReservedMinor: 0n,
      refundCount: 1,
      refundedAt: null,
      refundVersion: before.refundVersion + 2,
    });
    expect(await acquirerRefunded(after)).toBe(4_000n);
    const events = await refundEvents(p.id);
    expect(events).toMatchObject([
      {
        type: 'refund.succeeded',
        integratorId: integrator.id,
        callbackUrl: 'https://shop.example/cb',
        callbackState: 'pending',
        emailTo: 'ana@example.com',
        emailState: 'pending',
        createdAt: clock,
      },
    ]);
    expect(events[0]!.data).toMatchObject({
      refund_id: outcome.refund.id,
      refund_type: 'PARTIAL',
      status: 'succeeded',
      amount: '40.00',
      refunded_amount: '40.00',
      refundable_amount: '60.00',
    });
  });

  it('refund › a FULL refund after a PARTIAL one takes exactly the rest and marks the payment refunded', async () => {
    const integrator = await acme();
    const p = await createPayment(t, { amount: '100.00' });
    await refundPayment(t.app, integrator, request(p.id, { amount: '30.00' }));
    tick(1000);
    const outcome = await refundPayment(t.app, integrator, request(p.id, { notifyUser: false }));
    expect(outcome.refund).toMatchObject({ type: 'full', status: 'succeeded', amountMinor: 7_000n, notifyUser: false, succeededAt: clock });
    const after = await paymentRow(p.id);
    expect(outcome.payment).toEqual(after);
    expect(after).toMatchObject({ refundedMinor: 10_000n, refundReservedMinor: 0n, refundCount: 2, refundedAt: clock });
    const events = await refundEvents(p.id);
    expect(events.map((e) => [e.type, e.emailTo])).toEqual([
      ['refund.succeeded', 'juan@example.com'],
      ['refund.succeeded', null],
    ]);
    expect(await acquirerRefunded(after)).toBe(10_000n);
  });

  it("refund › an acquirer refusal is recorded failed with its code and message, the reservation and the refund's place given back", async () => {
    const integrator = await acme();
    const p = await createPayment(t, { card: CARDS.refundFails, amount: '80.00' });
    const before = await paymentRow(p.id);
    tick(1000);
    const outcome = await refundPayment(t.app, integrator, request(p.id, { amount: '30.00' }));
    expect(outcome.refund).toMatchObject({
      status: 'failed',
      amountMinor: 3_000n,
      acquirerReference: null,
      failureCode: 'refund_not_supported',
      failureMessage: 'The card issuer does not accept refunds to this card.',
      succeededAt: null,
      failedAt: clock,
    });
    expect(await refundRows(p.id)).toEqual([outcome.refund]);
    const after = await paymentRow(p.id);
    expect(outcome.payment).toEqual(after);
    expect(after).toEqual({ ...before, refundedMinor: 0n, refundReservedMinor: 0n, refundCount: 0, refundedAt: null, refundVersion: before.refundVersion + 2 });
    // A refused refund is the merchant's to resolve: no e-mail to the customer, who asked for one.
    expect(await refundEvents(p.id)).toMatchObject([{ type: 'refund.failed', emailTo: null, emailState: 'none', callbackState: 'pending' }]);
  });

  it("refund › an event of a payment without a callback URL goes to the integrator's default one", async () => {
    const p = await createPayment(t, { amount: '20.00', callbackUrl: null });
    await t.app.db.update(integrators).set({ defaultCallbackUrl: 'https://shop.example/default' }).where(eq(integrators.name, 'Acme Books'));
    try {
      const outcome = await refundPayment(t.app, await acme(), request(p.id));
      expect(outcome.refund.status).toBe('succeeded');
      expect(await refundEvents(p.id)).toMatchObject([{ type: 'refund.succeeded', callbackUrl: 'https://shop.example/default', callbackState: 'pending' }]);
    } finally {
      await t.app.db.update(integrators).set({ defaultCallbackUrl: null }).where(eq(integrators.name, 'Acme Books'));
    }
  });

  it('refund › a console refund writes its audit entry and still refunds once', async () => {
    const integrator = await acme();
    const p = await createPayment(t, { amount: '100.00' });
    const actor: Actor = { integratorId: integrator.id, userId: 'usr_console', email: 'owner@acme.example', ip: '203.0.113.9', userAgent: 'Console test' };
    tick(1000);
    const outcome = await refundPayment(t.app, integrator, request(p.id, { amount: '12.50', actor }));
    expect(outcome.refund).toMatchObject({ status: 'succeeded', amountMinor: 1_250n });
    expect(await paymentRow(p.id)).toMatchObject({ refundedMinor: 1_250n, refundReservedMinor: 0n, refundCount: 1 });
    const entries = await t.app.db.select().from(auditLog).where(eq(auditLog.action, 'refund.requested'));
    expect(entries.filter((e) => e.target?.includes(p.id))).toMatchObject([
      {
        integratorId: integrator.id,
        actorUserId: 'usr_console',
        actorEmail: 'owner@acme.example',
        action: 'refund.requested',
        target: `${outcome.refund.id} of ${p.id} (partial, 12.50 PHP)`,
        ip: '203.0.113.9',
        userAgent: 'Console test',
        at: clock,
      },
    ]);
    const full = await refundPayment(t.app, integrator, request(p.id, { actor }));
    const targets = (await t.app.db.select().from(auditLog).where(eq(auditLog.action, 'refund.requested'))).map((e) => e.target);
    expect(targets).toContain(`${full.refund.id} of ${p.id} (full, 87.50 PHP)`);
    expect(await refundEvents(p.id)).toHaveLength(2);
  });
});

describe('refund service: refunds of one payment meeting each other', () => {
  it('refund › a refund whose payment another refund changed while it was at the acquirer is still recorded, under the row lock', async () => {
    const integrator = await acme();
    const p = await createPayment(t, { amount: '100.00' });
    let second: Promise<Awaited<ReturnType<typeof refundPayment>>> | undefined;
    const first = await withAcquirerRefund(
      t.app,
      async (real, req, opts) => {
        // While the first refund is at the acquirer, a second one of the same payment starts and finishes.
        if (!second) {
          second = refundPayment(t.app, integrator, request(p.id, { amount: '25.00' }));
          await second;
        }
        return real(req, opts);
      },
      () => refundPayment(t.app, integrator, request(p.id, { amount: '40.00' })),
    );
    expect(first.refund).toMatchObject({ status: 'succeeded', amountMinor: 4_000n, succeededAt: clock });
    expect((await second!).refund).toMatchObject({ status: 'succeeded', amountMinor: 2_500n });
    const rows = await refundRows(p.id);
    expect(rows.find((r) => r.id === first.refund.id)).toEqual(first.refund);
    const after = await paymentRow(p.id);
    expect(first.payment).toEqual(after);
    expect(after).toMatchObject({ refundedMinor: 6_500n, refundReservedMinor: 0n, refundCount: 2 });
    expect(await acquirerRefunded(after)).toBe(6_500n);
    expect((await refundEvents(p.id)).map((e) => e.type)).toEqual(['refund.succeeded', 'refund.succeeded']);
  });

  it('refund › three refunds of one payment at once each take their amount from what the others left', async () => {
    const integrator = await acme();
    const p = await createPayment(t, { amount: '100.00' });
    await warmPool();
    const outcomes = await Promise.all(['10.00', '20.00', '30.00'].map((amount) => refundPayment(t.app, integrator, request(p.id, { amount }))));
    expect(outcomes.map((o) => [o.refund.status, o.refund.amountMinor])).toEqual([
      ['succeeded', 1_000n],
      ['succeeded', 2_000n],
      ['succeeded', 3_000n],
    ]);
    const rows = await refundRows(p.id);
    expect(rows.map((r) => r.id).sort()).toEqual(outcomes.map((o) => o.refund.id).sort());
    expect(rows.every((r) => r.status === 'succeeded')).toBe(true);
    const after = await paymentRow(p.id);
    expect(after).toMatchObject({ refundedMinor: 6_000n, refundReservedMinor: 0n, refundCount: 3 });
    expect(await acquirerRefunded(after)).toBe(6_000n);
    expect(await refundEvents(p.id)).toHaveLength(3);
  });

  it('refund › a console refund form sent twice at once (one form nonce, one key) refunds once and is audited once', async () => {
    const integrator = await acme();
    const p = await createPayment(t, { amount: '100.00' });
    const actor: Actor = { integratorId: integrator.id, userId: 'usr_double', email: 'owner@acme.example', ip: null, userAgent: null };
    const same = request(p.id, { amount: '15.00', idempotencyKey: 'console-refund:nonce-double', actor });
    await warmPool();
    const [x, y] = await Promise.all([refundPayment(t.app, integrator, same), refundPayment(t.app, integrator, same)]);
    expect(y.refund.id).toBe(x.refund.id);
    expect(await refundRows(p.id)).toMatchObject([{ id: x.refund.id, status: 'succeeded', amountMinor: 1_500n }]);
    expect(await paymentRow(p.id)).toMatchObject({ refundedMinor: 1_500n, refundReservedMinor: 0n, refundCount: 1 });
    expect(await acquirerRefunded(await paymentRow(p.id))).toBe(1_500n);
    const audited = (await t.app.db.select().from(auditLog).where(eq(auditLog.actorUserId, 'usr_double'))).map((e) => e.target);
    expect(audited).toEqual([`${x.refund.id} of ${p.id} (partial, 15.00 PHP)`]);
  });

  it('refund › a retry and a recovery pass finishing the same refund at once record it once, and the retry answers what was recorded', async () => {
    const integrator = await acme();
    const p = await createPayment(t, { amount: '100.00' });
    const same = request(p.id, { amount: '30.00', idempotencyKey: 'svc-key-race' });
    const { refund } = await beginRefund(t.app, integrator, same);
    tick(61_000);
    let recovered: number | undefined;
    const retried = await withAcquirerRefund(
      t.app,
      async (real, req, opts) => {
        const result = await real(req, opts);
        // The retry's answer is back; before it is recorded, a recovery pass finishes the refund.
        if (recovered === undefined) {
          recovered = -1;
          recovered = await recoverPendingRefunds(t.app, { paymentId: p.id });
        }
        return result;
      },
      () => refundPayment(t.app, integrator, same),
    );
    expect(recovered).toBe(1);
    const [row] = await refundRows(p.id);
    expect(row).toMatchObject({ id: refund.id, status: 'succeeded' });
    expect(retried).toEqual({ refund: row, payment: await paymentRow(p.id) });
    expect(await paymentRow(p.id)).toMatchObject({ refundedMinor: 3_000n, refundReservedMinor: 0n, refundCount: 1 });
    expect(await refundEvents(p.id)).toHaveLength(1);
  });

  it('refund › a retry of a settled refund answers from the database without asking the acquirer again', async () => {
    const integrator = await acme();
    const p = await createPayment(t, { amount: '100.00' });
    const same = request(p.id, { amount: '10.00', idempotencyKey: 'svc-key-settled' });
    let calls = 0;
    const count: Parameters<typeof withAcquirerRefund>[1] = (real, req, opts) => {
      calls++;
      return real(req, opts);
    };
    const first = await withAcquirerRefund(t.app, count, () => refundPayment(t.app, integrator, same));
    expect(calls).toBe(1);
    tick(1000);
    expect(await withAcquirerRefund(t.app, count, () => refundPayment(t.app, integrator, same))).toEqual(first);
    expect(calls).toBe(1);
  });
});

describe('refund service: refusals, word for word', () => {
  it("refund › another integrator's payment is answered like a missing one, and nothing is written", async () => {
    const p = await createPayment(t, { integrator: 'Other Shop', amount: '10.00', currency: 'USD' });
    const expected = { code: 'ER.02.30', messages: { transaction_id: ['This transaction does not exist'] } };
    expect(await refusal(refundPayment(t.app, await acme(), request(p.id)))).toEqual(expected);
    expect(await refusal(refundPayment(t.app, await acme(), request('txn_missing')))).toEqual(expected);
    expect(await refundRows(p.id)).toEqual([]);
    // Its own integrator refunds it.
    const other = (await findIntegratorByToken(t.app.db, OTHER_TOKEN))!;
    expect((await refundPayment(t.app, other, request(p.id))).refund).toMatchObject({ status: 'succeeded', amountMinor: 1_000n, currency: 'USD' });
  });

  it('refund › a failed payment, a PARTIAL refund of a FULL-only brand, an amount above the rest and a bad amount are refused', async () => {
    const integrator = await acme();
    const failed = await createPayment(t, { card: CARDS.declined });
    expect(await refusal(refundPayment(t.app, integrator, request(failed.id)))).toEqual({
      code: 'ER.20.22',
      messages: { transaction_id: ['was not paid (the payment failed), so there is nothing to refund'] },
    });
    const mastercard = await createPayment(t, { card: CARDS.mastercard, amount: '50.00' });
    expect(await refusal(refundPayment(t.app, integrator, request(mastercard.id, { amount: '10.00' })))).toEqual({
      code: 'ER.20.23',
      messages: { amount: ['PARTIAL refunds are not available for mastercard cards on your account; omit amount to make a FULL refund'] },
    });
    expect((await refundPayment(t.app, integrator, request(mastercard.id))).refund).toMatchObject({ type: 'full', amountMinor: 5_000n });
    const visa = await createPayment(t, { amount: '50.00' });
    expect(await refusal(refundPayment(t.app, integrator, request(visa.id, { amount: '50.01' })))).toEqual({
      code: 'ER.20.21',
      messages: { amount: ['exceeds what is still refundable: at most 50.00 PHP remains'] },
    });
    expect(await refusal(refundPayment(t.app, integrator, request(visa.id, { amount: '1.001' })))).toMatchObject({
      code: 'ER.02.30',
      messages: { amount: [expect.any(String)] },
    });
    expect(await refundRows(visa.id)).toEqual([]);
    expect(await refundRows(failed.id)).toEqual([]);
    expect(await paymentRow(visa.id)).toMatchObject({ refundReservedMinor: 0n, refundCount: 0 });
  });

  it('refund › the configured count and window apply (PAYLINK_REFUND_MAX_COUNT 3, PAYLINK_REFUND_WINDOW_DAYS 30)', async () => {
    const integrator = await acme();
    const p = await createPayment(t, { amount: '100.00' });
    for (let i = 0; i < 3; i++) await refundPayment(t.app, integrator, request(p.id, { amount: '1.00' }));
    expect(await refusal(refundPayment(t.app, integrator, request(p.id, { amount: '1.00' })))).toEqual({
      code: 'ER.20.24',
      messages: { transaction_id: ['already has 3 refunds, the most one transaction may have (3)'] },
    });
    const old = await createPayment(t, { amount: '10.00' });
    tick(30 * 86_400_000 + 1);
    expect(await refusal(refundPayment(t.app, integrator, request(old.id)))).toEqual({
      code: 'ER.20.25',
      messages: { transaction_id: ['was paid more than 30 days ago; refunds are accepted for 30 days after payment'] },
    });
    expect(await refundRows(old.id)).toEqual([]);
  });

  it('refund › a refund while another holds the rest says how much is being refunded right now', async () => {
    const integrator = await acme();
    const p = await createPayment(t, { amount: '100.00' });
    const { refund } = await beginRefund(t.app, integrator, request(p.id));
    expect(refund).toMatchObject({ status: 'pending', type: 'full', amountMinor: 10_000n, acquirerReference: null, succeededAt: null, failedAt: null });
    expect(await refusal(refundPayment(t.app, integrator, request(p.id, { amount: '0.01' })))).toEqual({
      code: 'ER.20.20',
      messages: { transaction_id: ['has already been fully refunded (100.00 PHP is being refunded right now); nothing is left to refund'] },
    });
    tick(61_000);
    expect(await recoverPendingRefunds(t.app, { paymentId: p.id })).toBe(1);
    expect(await paymentRow(p.id)).toMatchObject({ refundedMinor: 10_000n, refundReservedMinor: 0n, refundCount: 1, refundedAt: clock });
  });
});

describe('refund service: Idempotency-Key', () => {
  it('refund › the same key and request return the first refund, pending or settled, and refund once', async () => {
    const integrator = await acme();
    const p = await createPayment(t, { amount: '100.00' });
    const same = request(p.id, { amount: '25.00', idempotencyKey: 'svc-key-1' });
    const started = await beginRefund(t.app, integrator, same);
    expect(started.refund).toMatchObject({ status: 'pending', idempotencyKey: 'svc-key-1', amountMinor: 2_500n });
    const resumed = await beginRefund(t.app, integrator, same);
    expect(resumed.refund).toEqual(started.refund);
    expect(resumed.reserved).toBeUndefined();
    const first = await refundPayment(t.app, integrator, same);
    expect(first.refund).toMatchObject({ id: started.refund.id, status: 'succeeded' });
    const again = await refundPayment(t.app, integrator, same);
    expect(again).toEqual(first);
    tick(1000);
    // A FULL refund's retry need not repeat an amount: the type decides.
    const full = await refundPayment(t.app, integrator, request(p.id, { idempotencyKey: 'svc-key-2' }));
    expect((await refundPayment(t.app, integrator, request(p.id, { idempotencyKey: 'svc-key-2' }))).refund).toEqual(full.refund);
    expect((await refundRows(p.id)).map((r) => [r.idempotencyKey, r.amountMinor])).toEqual([
      ['svc-key-1', 2_500n],
      ['svc-key-2', 7_500n],
    ]);
    expect(await acquirerRefunded(await paymentRow(p.id))).toBe(10_000n);
    expect(await refundEvents(p.id)).toHaveLength(2);
  });

  it('refund › the same key with another amount or another type is refused (ER.02.40) and writes nothing', async () => {
    const integrator = await acme();
    const p = await createPayment(t, { amount: '100.00' });
    await refundPayment(t.app, integrator, request(p.id, { amount: '5.00', idempotencyKey: 'svc-key-3' }));
    const expected = {
      code: 'ER.02.40',
      messages: { 'idempotency-key': ['was already used for a different refund of this transaction; use a new key for a new refund'] },
    };
    expect(await refusal(refundPayment(t.app, integrator, request(p.id, { amount: '6.00', idempotencyKey: 'svc-key-3' })))).toEqual(expected);
    expect(await refusal(refundPayment(t.app, integrator, request(p.id, { idempotencyKey: 'svc-key-3' })))).toEqual(expected);
    await refundPayment(t.app, integrator, request(p.id, { idempotencyKey: 'svc-key-4' }));
    expect(await refusal(refundPayment(t.app, integrator, request(p.id, { amount: '95.00', idempotencyKey: 'svc-key-4' })))).toEqual(expected);
    expect(await refundRows(p.id)).toHaveLength(2);
  });

  it('refund › a key names a refund of one payment only, and only while it is valid (PAYLINK_IDEMPOTENCY_TTL_SECONDS)', async () => {
    const integrator = await acme();
    const a = await createPayment(t, { amount: '100.00' });
    const b = await createPayment(t, { amount: '100.00' });
    const first = await refundPayment(t.app, integrator, request(a.id, { amount: '10.00', idempotencyKey: 'svc-key-5' }));
    const onB = await refundPayment(t.app, integrator, request(b.id, { amount: '10.00', idempotencyKey: 'svc-key-5' }));
    expect(onB.refund.id).not.toBe(first.refund.id);
    expect(onB.refund.paymentId).toBe(b.id);
    tick(3_600_000);
    // Exactly the key's lifetime later it no longer names the first refund: a new one starts.
    const later = await refundPayment(t.app, integrator, request(a.id, { amount: '10.00', idempotencyKey: 'svc-key-5' }));
    expect(later.refund.id).not.toBe(first.refund.id);
    expect(await paymentRow(a.id)).toMatchObject({ refundedMinor: 2_000n, refundCount: 2 });
    // The newest refund under the key is the one a retry gets.
    tick(1000);
    expect((await refundPayment(t.app, integrator, request(a.id, { amount: '10.00', idempotencyKey: 'svc-key-5' }))).refund.id).toBe(later.refund.id);
  });

  it('refund › two concurrent requests with one key start one refund', async () => {
    const integrator = await acme();
    const p = await createPayment(t, { amount: '100.00' });
    const same = request(p.id, { amount: '20.00', idempotencyKey: 'svc-key-6' });
    const [x, y] = await Promise.all([refundPayment(t.app, integrator, same), refundPayment(t.app, integrator, same)]);
    expect(x.refund.id).toBe(y.refund.id);
    expect(await refundRows(p.id)).toHaveLength(1);
    expect(await paymentRow(p.id)).toMatchObject({ refundedMinor: 2_000n, refundReservedMinor: 0n, refundCount: 1 });
    expect(await acquirerRefunded(await paymentRow(p.id))).toBe(2_000n);
  });
});

describe('refund service: a refund the acquirer reports failed after it succeeded', () => {
  it('refund › the refund becomes failed and its amount refundable again, once (refund.failed event)', async () => {
    const integrator = await acme();
    const p = await createPayment(t, { amount: '100.00', customerEmail: 'ana@example.com' });
    const partial = await refundPayment(t.app, integrator, request(p.id, { amount: '30.00' }));
    tick(1000);
    const full = await refundPayment(t.app, integrator, request(p.id));
    expect(await paymentRow(p.id)).toMatchObject({ refundedMinor: 10_000n, refundCount: 2, refundedAt: clock });
    const before = await paymentRow(p.id);
    tick(5000);
    const failed = { status: 'failed' as const, refundId: full.refund.acquirerReference!, code: 'expired_or_canceled_card', message: 'The card was canceled.' };
    expect(await settleProviderRefund(t.app, integrator.id, failed)).toBe('settled');

    const reversed = (await refundRows(p.id)).find((row) => row.id === full.refund.id);
    expect(reversed).toEqual({
      ...full.refund,
      status: 'failed',
      failureCode: 'expired_or_canceled_card',
      failureMessage: 'The card was canceled.',
      failedAt: clock,
    });
    expect(await paymentRow(p.id)).toEqual({ ...before, refundedMinor: 3_000n, refundCount: 1, refundedAt: null, refundVersion: before.refundVersion + 1 });
    const events = await refundEvents(p.id);
    expect(events.map((e) => e.type)).toEqual(['refund.succeeded', 'refund.succeeded', 'refund.failed']);
    expect(events[2]).toMatchObject({ emailTo: null, emailState: 'none', createdAt: clock });
    expect(events[2]!.data).toMatchObject({
      refund_id: full.refund.id,
      status: 'failed',
      failure_code: 'expired_or_canceled_card',
      refunded_amount: '30.00',
      refundable_amount: '70.00',
    });

    // The same report again, or a report on a refund still succeeded elsewhere: nothing moves twice.
    expect(await settleProviderRefund(t.app, integrator.id, failed)).toBe('unchanged');
    expect(await settleProviderRefund(t.app, integrator.id, { status: 'succeeded', refundId: partial.refund.acquirerReference! })).toBe('unchanged');
    expect(await settleProviderRefund(t.app, integrator.id, { status: 'pending', refundId: partial.refund.acquirerReference! })).toBe('unchanged');
    expect(await refundEvents(p.id)).toHaveLength(3);
    expect(await paymentRow(p.id)).toMatchObject({ refundedMinor: 3_000n, refundCount: 1 });
  });

  it('refund › two reports of the same failure at once reverse the refund once', async () => {
    const integrator = await acme();
    const p = await createPayment(t, { amount: '60.00' });
    const { refund } = await refundPayment(t.app, integrator, request(p.id, { amount: '25.00' }));
    const failed = { status: 'failed' as const, refundId: refund.acquirerReference!, code: 'refund_failed', message: 'Failed.' };
    tick(1000);
    await warmPool();
    const answers = await Promise.all([settleProviderRefund(t.app, integrator.id, failed), settleProviderRefund(t.app, integrator.id, failed)]);
    expect(answers.sort()).toEqual(['settled', 'unchanged']);
    expect(await paymentRow(p.id)).toMatchObject({ refundedMinor: 0n, refundCount: 0 });
    expect((await refundEvents(p.id)).map((e) => e.type)).toEqual(['refund.succeeded', 'refund.failed']);
  });

  it("refund › a report on a refund paylink does not know, or of another integrator's refund, changes nothing", async () => {
    const integrator = await acme();
    const other = (await findIntegratorByToken(t.app.db, OTHER_TOKEN))!;
    const p = await createPayment(t, { amount: '10.00' });
    const { refund } = await refundPayment(t.app, integrator, request(p.id));
    const failed = { status: 'failed' as const, refundId: refund.acquirerReference!, code: 'refund_failed', message: 'Failed.' };
    expect(await settleProviderRefund(t.app, other.id, failed)).toBe('unknown');
    expect(await settleProviderRefund(t.app, integrator.id, { ...failed, refundId: 're_unknown' })).toBe('unknown');
    expect((await refundRows(p.id))[0]!.status).toBe('succeeded');
    expect(await paymentRow(p.id)).toMatchObject({ refundedMinor: 1_000n });
  });
});

describe('refund service: recovery of interrupted refunds', () => {
  let r: TestApp;
  beforeAll(async () => {
    r = await startApp();
  });
  afterAll(async () => {
    await r?.close();
  });

  /** Two payments, each with a refund of 10.00 left pending 61 s ago (past the recovery age). */
  async function twoStaleRefunds() {
    const integrator = await acme(r);
    const a = await createPayment(r, { amount: '100.00' });
    const b = await createPayment(r, { amount: '100.00' });
    await beginRefund(r.app, integrator, request(a.id, { amount: '10.00' }));
    await beginRefund(r.app, integrator, request(b.id, { amount: '10.00' }));
    tick(61_000);
    return { integrator, a, b };
  }

  it('refund › only refunds pending longer than PAYLINK_REFUND_RECOVERY_SECONDS are recovered, oldest first, at most `limit`', async () => {
    const integrator = await acme(r);
    const a = await createPayment(r, { amount: '100.00' });
    const b = await createPayment(r, { amount: '100.00' });
    const first = await beginRefund(r.app, integrator, request(b.id, { amount: '10.00' }));
    tick(1000);
    const second = await beginRefund(r.app, integrator, request(a.id, { amount: '20.00' }));
    tick(59_000);
    // The first is exactly 60 s old: not yet presumed interrupted.
    expect(await recoverPendingRefunds(r.app)).toBe(0);
    tick(1);
    expect(await recoverPendingRefunds(r.app, { limit: 1 })).toBe(1);
    expect((await refundRows(b.id, r))[0]).toMatchObject({ id: first.refund.id, status: 'succeeded', succeededAt: clock });
    expect((await refundRows(a.id, r))[0]).toMatchObject({ id: second.refund.id, status: 'pending' });
    expect(logEntries('refund recovered', r)).toMatchObject([{ level: 'info', refundId: first.refund.id, transactionId: b.id, status: 'succeeded' }]);
    tick(1000);
    expect(await recoverPendingRefunds(r.app)).toBe(1);
    expect(await recoverPendingRefunds(r.app)).toBe(0);
    expect(await paymentRow(a.id, r)).toMatchObject({ refundedMinor: 2_000n, refundReservedMinor: 0n, refundCount: 1 });
    expect(await refundEvents(a.id, r)).toHaveLength(1);
  });

  it('refund › recovery of one payment leaves the others pending', async () => {
    const { a, b } = await twoStaleRefunds();
    expect(await recoverPendingRefunds(r.app, { paymentId: b.id })).toBe(1);
    expect((await refundRows(a.id, r)).map((x) => x.status)).toEqual(['pending']);
    expect((await refundRows(b.id, r)).map((x) => x.status)).toEqual(['succeeded']);
    expect(await recoverPendingRefunds(r.app)).toBe(1);
  });

  it("refund › a refund request finishes its own payment's stale refunds only", async () => {
    const { integrator, a, b } = await twoStaleRefunds();
    const outcome = await refundPayment(r.app, integrator, request(b.id));
    expect(outcome.refund).toMatchObject({ type: 'full', amountMinor: 9_000n, status: 'succeeded' });
    expect((await refundRows(b.id, r)).map((x) => x.status)).toEqual(['succeeded', 'succeeded']);
    expect((await refundRows(a.id, r)).map((x) => x.status)).toEqual(['pending']);
    expect(await recoverPendingRefunds(r.app)).toBe(1);
  });

  it('refund › a recovered refund the acquirer refuses is recorded failed and its amount released', async () => {
    const integrator = await acme(r);
    const p = await createPayment(r, { card: CARDS.refundFails, amount: '50.00' });
    const { refund } = await beginRefund(r.app, integrator, request(p.id, { amount: '20.00' }));
    expect(await paymentRow(p.id, r)).toMatchObject({ refundReservedMinor: 2_000n, refundCount: 1 });
    tick(61_000);
    expect(await recoverPendingRefunds(r.app)).toBe(1);
    expect(await refundRows(p.id, r)).toMatchObject([{ id: refund.id, status: 'failed', failureCode: 'refund_not_supported', failedAt: clock }]);
    expect(await paymentRow(p.id, r)).toMatchObject({ refundedMinor: 0n, refundReservedMinor: 0n, refundCount: 0 });
    expect(logEntries('refund recovered', r).at(-1)).toMatchObject({ refundId: refund.id, status: 'failed' });
  });

  it('refund › a recovery whose acquirer call fails keeps the refund pending, says so, and goes on with the next one', async () => {
    const integrator = await acme(r);
    const a = await createPayment(r, { amount: '100.00' });
    const b = await createPayment(r, { amount: '100.00' });
    const stuck = await beginRefund(r.app, integrator, request(a.id, { amount: '10.00' }));
    tick(1000);
    const next = await beginRefund(r.app, integrator, request(b.id, { amount: '10.00' }));
    tick(61_000);
    const acquirer = sandboxOf(r.app).acquirer;
    sandboxOf(r.app).acquirer = Object.assign(Object.create(Object.getPrototypeOf(acquirer)), acquirer, {
      // The acquirer is unreachable for the first refund only.
      refund: (req: Parameters<typeof acquirer.refund>[0], opts: Parameters<typeof acquirer.refund>[1]) =>
        req.chargeId === a.acquirerReference ? Promise.reject(new Error('acquirer unreachable')) : acquirer.refund(req, opts),
    });
    try {
      expect(await recoverPendingRefunds(r.app)).toBe(1);
    } finally {
      sandboxOf(r.app).acquirer = acquirer;
    }
    expect(await refundRows(a.id, r)).toMatchObject([{ id: stuck.refund.id, status: 'pending' }]);
    expect(await refundRows(b.id, r)).toMatchObject([{ id: next.refund.id, status: 'succeeded' }]);
    expect(logEntries('refund recovery failed; will retry', r)).toMatchObject([
      { level: 'warn', refundId: stuck.refund.id, transactionId: a.id, error: { message: 'acquirer unreachable' } },
    ]);
    expect(await paymentRow(a.id, r)).toMatchObject({ refundedMinor: 0n, refundReservedMinor: 1_000n });
    expect(await recoverPendingRefunds(r.app)).toBe(1);
    expect(await paymentRow(a.id, r)).toMatchObject({ refundedMinor: 1_000n, refundReservedMinor: 0n });
  });
});
