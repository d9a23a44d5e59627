import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, consoleUsers, payments, refunds, staffRefundCaps } from '../../../src/db/schema.ts';
import type { Actor } from '../../../src/domain/accounts/audit.ts';
import { findIntegratorByToken } from '../../../src/domain/integrators/service.ts';
import { listStaffRefundCaps, setStaffRefundCap } from '../../../src/domain/refunds/caps.ts';
import { previewRefund } from '../../../src/domain/refunds/preview.ts';
import { type RefundRequest, refundPayment } from '../../../src/domain/refunds/service.ts';
import { CONSOLE_USERS, createTestApp, defaultSeed, provision, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { CARDS, createPayment } from '../../support/payments.ts';
import { recordStatusCode } from '../../support/status-codes-seen.ts';

/**
 * Staff refund caps (src/domain/refunds/caps.ts) against a real database (PGlite, and PostgreSQL
 * with DATABASE_URL): an owner caps what each staff member refunds per currency, at once and in
 * any 24 hours; a refund above a cap is refused and writes nothing; two at once cannot pass the
 * daily cap together; owners and the API are not capped.
 */
let clock = new Date('2026-09-01T08:00:00.000Z');
const tick = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => clock });
  await provision(t, defaultSeed());
});
afterAll(async () => {
  await t?.close();
});

const acme = async () => (await findIntegratorByToken(t.app.db, TEST_TOKEN))!;
async function actorOf(email: string): Promise<Actor & { integratorId: string }> {
  const [user] = await t.app.db.select().from(consoleUsers).where(eq(consoleUsers.email, email));
  return { integratorId: user!.integratorId, userId: user!.id, email: user!.email, role: user!.role, ip: '203.0.113.7', userAgent: 'caps test' };
}
const staff = () => actorOf(CONSOLE_USERS.acmeStaff.email);
const owner = () => actorOf(CONSOLE_USERS.acmeOwner.email);
const request = (transactionId: string, extra: Partial<RefundRequest> = {}): RefundRequest => ({
  transactionId,
  notifyUser: false,
  reason: 'Customer request',
  ...extra,
});
const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'expected a refusal').toBeDefined();
  // Console-only codes reach no JSON envelope: the refusal the service threw is what produced them.
  recordStatusCode({ data: { status_code: (error as { code: string }).code } });
  return error as { code: string; messages: Record<string, string[]>; data?: Record<string, unknown> };
};
const refundRows = (paymentId: string) => t.app.db.select().from(refunds).where(eq(refunds.paymentId, paymentId));
const paymentRow = async (id: string) => (await t.app.db.select().from(payments).where(eq(payments.id, id)))[0]!;
/** Opens a few pooled connections first (PostgreSQL), so refunds started together also reach the database together. */
const warmPool = () => Promise.all([1, 2, 3, 4, 5].map(() => t.app.db.execute(sql`select pg_sleep(0.05)`)));
/** Each test its own currency's cap, so what one refunds does not count in another's day. */
const capOf = async (currency: string) =>
  (
    await t.app.db
      .select()
      .from(staffRefundCaps)
      .where(and(eq(staffRefundCaps.integratorId, (await acme()).id), eq(staffRefundCaps.currency, currency)))
  )[0];

describe('staff refund caps: the owner sets them', () => {
  it('caps › an owner sets, changes and removes a currency’s caps, each audited in words', async () => {
    const by = await owner();
    await setStaffRefundCap(t.app, by, { currency: 'php', per_refund: '500.00', per_day: '2000' });
    expect(await capOf('PHP')).toMatchObject({ perRefundMinor: 50_000n, perDayMinor: 200_000n });
    await setStaffRefundCap(t.app, by, { currency: 'PHP', per_refund: '', per_day: '1500.50' });
    expect(await capOf('PHP')).toMatchObject({ perRefundMinor: null, perDayMinor: 150_050n });
    expect((await listStaffRefundCaps(t.app, by.integratorId)).map((c) => c.currency)).toContain('PHP');
    await setStaffRefundCap(t.app, by, { currency: 'PHP', per_refund: '', per_day: '' });
    expect(await capOf('PHP')).toBeUndefined();
    const targets = (await t.app.db.select().from(auditLog).where(eq(auditLog.action, 'refund_caps.changed'))).map((e) => e.target);
    expect(targets).toEqual(['PHP: per refund 500.00 PHP, per day 2000.00 PHP', 'PHP: per refund no limit, per day 1500.50 PHP', 'PHP: no limits']);
  });

  it('caps › bad values are refused field by field and nothing is saved; staff cannot set them', async () => {
    const by = await owner();
    expect(await refusal(setStaffRefundCap(t.app, by, { currency: 'PESO', per_refund: '1', per_day: '' }))).toMatchObject({
      code: 'ER.02.30',
      messages: { currency: ['must be a three-letter currency code such as PHP'] },
    });
    expect(await refusal(setStaffRefundCap(t.app, by, { currency: 'ZZZ', per_refund: '1', per_day: '' }))).toMatchObject({
      messages: { currency: ['is not an ISO 4217 currency code'] },
    });
    const amounts = await refusal(setStaffRefundCap(t.app, by, { currency: 'JPY', per_refund: '10.5', per_day: '-3' }));
    expect(Object.keys(amounts.messages).sort()).toEqual(['per_day', 'per_refund']);
    expect(await refusal(setStaffRefundCap(t.app, by, { currency: 'USD', per_refund: '200', per_day: '100' }))).toMatchObject({
      messages: { per_refund: ['must not be more than the daily limit: one refund could never reach it'] },
    });
    expect(await refusal(setStaffRefundCap(t.app, await staff(), { currency: 'USD', per_refund: '1', per_day: '' }))).toMatchObject({ code: 'ER.02.30' });
    expect(await capOf('JPY')).toBeUndefined();
    expect(await capOf('USD')).toBeUndefined();
  });
});

describe('staff refund caps: a staff member’s refunds', () => {
  it('caps › a refund above the per-refund cap is refused (ER.20.40) at review and at refund, and nothing changes', async () => {
    const integrator = await acme();
    await setStaffRefundCap(t.app, await owner(), { currency: 'PHP', per_refund: '100.00', per_day: '' });
    const p = await createPayment(t, { amount: '250.00' });
    const actor = await staff();
    const above = request(p.id, { amount: '100.01', actor });
    const reviewed = await refusal(previewRefund(t.app, integrator, above));
    expect(reviewed).toMatchObject({ code: 'ER.20.40', data: { per_refund_limit: '100.00', currency: 'PHP' } });
    expect(reviewed.messages.amount![0]).toContain('is above what staff may refund at once (100.00 PHP)');
    expect((await refusal(refundPayment(t.app, integrator, above))).code).toBe('ER.20.40');
    // A FULL refund is its amount too: everything still refundable is above the cap.
    expect((await refusal(refundPayment(t.app, integrator, request(p.id, { actor })))).code).toBe('ER.20.40');
    expect(await refundRows(p.id)).toEqual([]);
    expect(await paymentRow(p.id)).toMatchObject({ refundedMinor: 0n, refundReservedMinor: 0n, refundCount: 0 });
    // At the cap: allowed, and the refund names who asked.
    const at = await refundPayment(t.app, integrator, request(p.id, { amount: '100.00', actor }));
    expect(at.refund).toMatchObject({ status: 'succeeded', amountMinor: 10_000n, requestedByUserId: actor.userId });
    // Owners and the API are not capped.
    expect((await refundPayment(t.app, integrator, request(p.id, { amount: '100.01', actor: await owner() }))).refund.status).toBe('succeeded');
    expect((await refundPayment(t.app, integrator, request(p.id, { amount: '49.99' }))).refund.requestedByUserId).toBeNull();
    await setStaffRefundCap(t.app, await owner(), { currency: 'PHP', per_refund: '', per_day: '' });
  });

  it('caps › the daily cap sums the staff member’s refunds of the last 24 hours; a failed one does not count', async () => {
    const integrator = await acme();
    await setStaffRefundCap(t.app, await owner(), { currency: 'USD', per_refund: '', per_day: '50.00' });
    const actor = await staff();
    const p = await createPayment(t, { amount: '200.00', currency: 'USD' });
    const q = await createPayment(t, { amount: '40.00', currency: 'USD', card: CARDS.refundFails });
    expect((await refundPayment(t.app, integrator, request(p.id, { amount: '30.00', actor }))).refund.status).toBe('succeeded');
    // Refused by the acquirer: it returned nothing, so it does not use the day's cap.
    expect((await refundPayment(t.app, integrator, request(q.id, { amount: '20.00', actor }))).refund.status).toBe('failed');
    tick(60 * 60_000);
    expect((await refundPayment(t.app, integrator, request(p.id, { amount: '15.00', actor }))).refund.status).toBe('succeeded');
    const over = await refusal(refundPayment(t.app, integrator, request(p.id, { amount: '5.01', actor })));
    expect(over).toMatchObject({ code: 'ER.20.41', data: { daily_limit: '50.00', refunded_today: '45.00', currency: 'USD' } });
    expect(over.messages.amount![0]).toContain('45.00 USD refunded so far, 5.00 USD left');
    expect((await refusal(previewRefund(t.app, integrator, request(p.id, { amount: '5.01', actor })))).code).toBe('ER.20.41');
    expect(await paymentRow(p.id)).toMatchObject({ refundedMinor: 4_500n, refundReservedMinor: 0n, refundCount: 2 });
    // Another currency has its own cap (none here); the owner is not capped.
    const php = await createPayment(t, { amount: '500.00' });
    expect((await refundPayment(t.app, integrator, request(php.id, { amount: '400.00', actor }))).refund.status).toBe('succeeded');
    expect((await refundPayment(t.app, integrator, request(p.id, { amount: '60.00', actor: await owner() }))).refund.status).toBe('succeeded');
    // 24 hours after the first refund, it no longer counts.
    tick(23 * 60 * 60_000);
    expect((await refusal(refundPayment(t.app, integrator, request(p.id, { amount: '35.01', actor })))).code).toBe('ER.20.41');
    tick(60_000);
    expect((await refundPayment(t.app, integrator, request(p.id, { amount: '35.00', actor }))).refund.status).toBe('succeeded');
  });

  it('caps › refunds at once by one staff member, on different payments, cannot pass the daily cap together', async () => {
    const integrator = await acme();
    await setStaffRefundCap(t.app, await owner(), { currency: 'EUR', per_refund: '', per_day: '50.00' });
    const actor = await staff();
    const paid = await Promise.all([1, 2, 3, 4, 5].map(() => createPayment(t, { amount: '100.00', currency: 'EUR' })));
    await warmPool();
    const outcomes = await Promise.allSettled(paid.map((p) => refundPayment(t.app, integrator, request(p.id, { amount: '20.00', actor }))));
    const made = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as { code: string }).code] : []));
    expect(made).toHaveLength(2);
    expect(refused).toEqual(['ER.20.41', 'ER.20.41', 'ER.20.41']);
    const rows = (await Promise.all(paid.map((p) => refundRows(p.id)))).flat();
    expect(rows.reduce((sum, r) => sum + r.amountMinor, 0n)).toBe(4_000n);
  });

  it('caps › refunds at once by one staff member on the same payment cannot pass the per-day cap together either', async () => {
    const integrator = await acme();
    await setStaffRefundCap(t.app, await owner(), { currency: 'SGD', per_refund: '30.00', per_day: '60.00' });
    const actor = await staff();
    const p = await createPayment(t, { amount: '500.00', currency: 'SGD' });
    await warmPool();
    const outcomes = await Promise.allSettled(
      ['30.00', '30.00', '30.00', '30.00'].map((amount) => refundPayment(t.app, integrator, request(p.id, { amount, actor }))),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    expect(await paymentRow(p.id)).toMatchObject({ refundedMinor: 6_000n, refundReservedMinor: 0n, refundCount: 2 });
  });
});
