import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StripeConnector } from '../../../src/acquirer/stripe/connector.ts';
import { sha256Hex } from '../../../src/crypto.ts';
import { cardRegistrations, integrators, links, outboxEvents, payments, sandboxCharges, scheduleRuns, schedules } from '../../../src/db/schema.ts';
import { completeCardRegistration, createCardRegistration } from '../../../src/domain/cards/service.ts';
import { startMethodAttempt } from '../../../src/domain/checkout/method-pay.ts';
import { checkoutStatus } from '../../../src/domain/checkout/method-status.ts';
import { findIntegratorByToken } from '../../../src/domain/integrators/service.ts';
import { chargeClaim } from '../../../src/domain/schedules/charge.ts';
import { claimDueAttempts, claimDueOccurrences } from '../../../src/domain/schedules/claim.ts';
import { recordClaimOutcome, recordClaimOutcomes } from '../../../src/domain/schedules/record.ts';
import { runScheduleNow } from '../../../src/domain/schedules/run-now.ts';
import { cancelSchedule, createSchedule } from '../../../src/domain/schedules/service.ts';
import { runSchedulerTick } from '../../../src/domain/schedules/tick.ts';
import { createTestApp, defaultSeed, OTHER_SECRET, provision, sandboxOf, TEST_TOKEN, type TestApp, testDb } from '../../support/app.ts';
import { CARD_EXP } from '../../support/cards.ts';
import { browserConfirmsSetup, type FakeStripe, startFakeStripe } from '../../support/fakes/stripe.ts';
import { acquirerSeed } from '../../support/provider-app.ts';
import { ACME_CARD, scheduleData, signSchedule, testClock } from '../../support/schedules.ts';

/**
 * The scheduler's steps called one by one (claim, charge, record), as two workers or a crash
 * would interleave them: what each claim carries, which due work it takes first, the cases it
 * closes instead of charging, and what a tick does when the acquirer or the recording fails.
 */
let t: TestApp | undefined;
let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe();
});
afterAll(async () => {
  await stripe?.close();
});
afterEach(async () => {
  await t?.close();
  t = undefined;
});

// Every day at 09:00 and at 10:00, +08:00 (01:00Z and 02:00Z).
const DAILY_AT = (hour: number) => ({ second: '0', minute: '0', hour: String(hour), day_of_month: '*', month: '*', day_of_week: '*' });
const EVERY_MINUTE = { second: '0', minute: '*', hour: '*', day_of_month: '*', month: '*', day_of_week: '*' };

async function setup(env: Record<string, string> = {}, opts: { stripeForOther?: boolean } = {}) {
  const clock = testClock('2026-03-02T00:30:00.000Z');
  t = await createTestApp({ now: clock.now, env: { PAYLINK_SCHEDULE_LEASE_SECONDS: '300', ...env } });
  const seed = defaultSeed();
  if (opts.stripeForOther) {
    seed.integrators[1]!.acquirer = acquirerSeed('stripe', stripe);
  }
  await provision(t, seed);
  const app = t.app;
  const logs = t.logs;
  const integrator = (await findIntegratorByToken(app.db, TEST_TOKEN))!;
  const schedule = async (data: Record<string, unknown> = {}, as: { integrator?: typeof integrator; secret?: string } = {}) =>
    (
      await createSchedule(
        app,
        as.integrator ?? integrator,
        await signSchedule(scheduleData({ schedule: DAILY_AT(9), ...data }), { iat: clock.now(), secret: as.secret }),
      )
    ).reference;
  const registerCard = async (number: string, customer: { name?: string; email?: string } = { name: 'Ana', email: 'ana@example.com' }) => {
    const created = await createCardRegistration(app, integrator, { customer });
    await completeCardRegistration(app, created.link.split('/').pop()!, { number, ...CARD_EXP, cvc: '123' });
    return created.reference;
  };
  const card = async (reference: string) => (await app.db.select().from(cardRegistrations).where(eq(cardRegistrations.reference, reference)))[0]!;
  const runsOf = (id: string) => app.db.select().from(scheduleRuns).where(eq(scheduleRuns.scheduleId, id)).orderBy(scheduleRuns.dueAt);
  const scheduleRow = async (id: string) => (await app.db.select().from(schedules).where(eq(schedules.id, id)))[0]!;
  const count = async (table: typeof payments | typeof sandboxCharges) => Number((await app.db.select({ n: sql<number>`count(*)` }).from(table))[0]!.n);
  const eventsOf = async (type: string) => app.db.select().from(outboxEvents).where(eq(outboxEvents.type, type));
  const logLines = (from: number) => logs.slice(from).map((l) => JSON.parse(l) as Record<string, unknown>);
  return { app, clock, integrator, schedule, registerCard, card, runsOf, scheduleRow, count, eventsOf, logs, logLines };
}

/** A Stripe card saved through a SetupIntent (as the hosted registration page does), registered for the other integrator. */
async function stripeCard(s: Awaited<ReturnType<typeof setup>>, paymentMethod = 'pm_card_visa') {
  const [other] = await s.app.db.select().from(integrators).where(eq(integrators.name, 'Other Shop'));
  const connector = (await s.app.connectors.forIntegrator(other!.id)) as StripeConnector;
  const reference = randomUUID();
  const started = await connector.createCardSetup(
    { reference, customerName: 'Cora Lim', returnUrl: 'http://paylink.test/return' },
    { idempotencyKey: `setup:${reference}` },
  );
  const confirmed = await browserConfirmsSetup(
    stripe,
    { setupId: started.setupId, clientSecret: started.clientSecret },
    paymentMethod,
    'http://paylink.test/return',
  );
  // 3-D Secure at registration: the customer approves it (later off-session charges may still be refused without them).
  const challenge = confirmed.json.next_action?.redirect_to_url?.url;
  if (challenge) await fetch(`${challenge}?answer=approve`, { redirect: 'manual' });
  const setupState = await connector.syncCardSetup(started.setupId);
  if (setupState.status !== 'succeeded') throw new Error(setupState.status);
  await s.app.db.insert(cardRegistrations).values({
    reference,
    integratorId: other!.id,
    status: 'active',
    cardToken: setupState.token,
    cardCustomer: setupState.customer,
    brand: 'visa',
    last4: '4242',
    customerName: 'Cora Lim',
    createdAt: s.clock.now(),
    activatedAt: s.clock.now(),
  });
  return { reference, integrator: other!, token: setupState.token, customer: setupState.customer };
}

describe('scheduler › claims', () => {
  it('claims a due occurrence with everything its charge needs, leased, and moves next_run_at to the next local 09:00', async () => {
    const s = await setup();
    const id = await s.schedule({ route: { callback_url: 'http://127.0.0.1:9/cb', notify_user: true } });
    const row = await s.scheduleRow(id);
    s.clock.set('2026-03-02T01:00:05.000Z');
    const claims = await claimDueOccurrences(s.app, { limit: 10 });
    expect(claims).toEqual([
      {
        runId: expect.stringMatching(/^run_\w+$/),
        attempt: 1,
        dueAt: new Date('2026-03-02T01:00:00.000Z'),
        scheduleId: id,
        integratorId: s.integrator.id,
        amountMinor: 15000n,
        currency: 'PHP',
        cardToken: (await s.card(ACME_CARD)).cardToken,
        cardCustomer: null,
        cardRegistrationReference: ACME_CARD,
        customerEmail: null,
        // No name at registration: the card holder's.
        customerName: 'Juan Dela Cruz',
        description: 'Monthly plan',
        merchantReferenceId: 'order-1',
        otherReferences: ['inv-1'],
        callbackUrl: 'http://127.0.0.1:9/cb',
        notifyUser: true,
        timeOffset: '+08:00',
        cronPattern: row.cronPattern,
        // A signed schedule runs on every occurrence of its recurrence.
        every: 1,
        anchorAt: null,
        collection: 'saved_card',
      },
    ]);
    expect(await s.runsOf(id)).toMatchObject([
      {
        id: claims[0]!.runId,
        status: 'pending',
        attempts: 1,
        nextAttemptAt: new Date('2026-03-02T01:05:05.000Z'),
        lockedUntil: new Date('2026-03-02T01:05:05.000Z'),
        createdAt: new Date('2026-03-02T01:00:05.000Z'),
        paymentId: null,
      },
    ]);
    expect((await s.scheduleRow(id)).nextRunAt).toEqual(new Date('2026-03-03T01:00:00.000Z'));
    // Leased: nothing to claim until the lease lapses, then the same attempt again.
    expect(await claimDueAttempts(s.app, { limit: 10 })).toEqual([]);
    s.clock.set('2026-03-02T01:05:05.000Z');
    const recovered = await claimDueAttempts(s.app, { limit: 10 });
    expect(recovered).toEqual([{ ...claims[0], attempt: 1 }]);
    expect((await s.runsOf(id))[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      nextAttemptAt: new Date('2026-03-02T01:10:05.000Z'),
      lockedUntil: new Date('2026-03-02T01:10:05.000Z'),
    });
  });

  it('claims the earliest due schedules first, up to the limit', async () => {
    const s = await setup();
    const ten = await s.schedule({ schedule: DAILY_AT(10) });
    const nine = await s.schedule({ schedule: DAILY_AT(9) });
    s.clock.set('2026-03-02T02:00:05.000Z');
    expect((await claimDueOccurrences(s.app, { limit: 1 })).map((c) => [c.scheduleId, c.dueAt.toISOString()])).toEqual([[nine, '2026-03-02T01:00:00.000Z']]);
    expect((await claimDueOccurrences(s.app, { limit: 1 })).map((c) => [c.scheduleId, c.dueAt.toISOString()])).toEqual([[ten, '2026-03-02T02:00:00.000Z']]);
    expect(await claimDueOccurrences(s.app, { limit: 1 })).toEqual([]);
    // Attempts too: the run whose lease lapsed first comes first.
    const [tenRun] = await s.runsOf(ten);
    const [nineRun] = await s.runsOf(nine);
    await s.app.db
      .update(scheduleRuns)
      .set({ nextAttemptAt: new Date('2026-03-02T02:09:00.000Z') })
      .where(eq(scheduleRuns.id, nineRun!.id));
    await s.app.db
      .update(scheduleRuns)
      .set({ nextAttemptAt: new Date('2026-03-02T02:08:00.000Z') })
      .where(eq(scheduleRuns.id, tenRun!.id));
    s.clock.set('2026-03-02T02:10:00.000Z');
    expect((await claimDueAttempts(s.app, { limit: 1 })).map((c) => c.runId)).toEqual([tenRun!.id]);
    expect((await claimDueAttempts(s.app, { limit: 1 })).map((c) => c.runId)).toEqual([nineRun!.id]);
    expect(await claimDueAttempts(s.app, { limit: 1 })).toEqual([]);
  });

  it('cancels an active schedule whose card registration is gone when it is due, instead of charging it', async () => {
    const s = await setup();
    const card = await s.registerCard('4242424242424242');
    const id = await s.schedule({ credit_card: { reference: card } });
    await s.app.db.update(cardRegistrations).set({ status: 'deleted' }).where(eq(cardRegistrations.reference, card));
    s.clock.set('2026-03-02T01:00:05.000Z');
    expect(await claimDueOccurrences(s.app, { limit: 10 })).toEqual([]);
    expect(await s.scheduleRow(id)).toMatchObject({ status: 'cancelled', cancelledAt: new Date('2026-03-02T01:00:05.000Z'), nextRunAt: null });
    expect((await s.eventsOf('schedule.cancelled')).map((e) => [e.data.schedule_reference, e.data.reason])).toEqual([[id, 'card_registration_deleted']]);
    expect(await s.runsOf(id)).toEqual([]);
    expect(await s.count(sandboxCharges)).toBe(0);
  });

  it('never claims an occurrence that already has a run, and still moves next_run_at on', async () => {
    const s = await setup();
    const id = await s.schedule();
    const dueAt = new Date('2026-03-02T01:00:00.000Z');
    await s.app.db.insert(scheduleRuns).values({ id: 'run_earlier', scheduleId: id, dueAt, status: 'succeeded', attempts: 1, createdAt: s.clock.now() });
    s.clock.set('2026-03-02T01:00:05.000Z');
    expect(await claimDueOccurrences(s.app, { limit: 10 })).toEqual([]);
    expect((await s.runsOf(id)).map((r) => [r.id, r.status])).toEqual([['run_earlier', 'succeeded']]);
    expect((await s.scheduleRow(id)).nextRunAt).toEqual(new Date('2026-03-03T01:00:00.000Z'));
  });

  it('a retry of a schedule cancelled while its charge was in flight is cancelled at its time, never charged again', async () => {
    const s = await setup();
    const card = await s.registerCard('4000000000000341');
    const id = await s.schedule({ credit_card: { reference: card } });
    s.clock.set('2026-03-02T01:00:05.000Z');
    const [claim] = await claimDueOccurrences(s.app, { limit: 10 });
    const declined = await chargeClaim(s.app, claim!);
    await cancelSchedule(s.app, s.integrator, id); // the in-flight run is left to finish
    expect(await recordClaimOutcome(s.app, claim!, declined)).toBe('retrying');
    expect(await s.scheduleRow(id)).toMatchObject({ status: 'cancelled', consecutiveFailures: 0 });
    s.clock.set('2026-03-02T02:00:05.000Z');
    expect(await claimDueAttempts(s.app, { limit: 10 })).toEqual([]);
    expect(await s.runsOf(id)).toMatchObject([{ status: 'cancelled', attempts: 1, nextAttemptAt: null, completedAt: new Date('2026-03-02T02:00:05.000Z') }]);
    expect(await s.count(payments)).toBe(1);
  });

  it('a last failure of a schedule cancelled meanwhile does not suspend it', async () => {
    const s = await setup({ PAYLINK_SCHEDULE_RETRY_SECONDS: '60', PAYLINK_SCHEDULE_MAX_FAILED_RUNS: '1' });
    const card = await s.registerCard('4000000000000341');
    const id = await s.schedule({ credit_card: { reference: card } });
    s.clock.set('2026-03-02T01:00:05.000Z');
    await runSchedulerTick(s.app); // attempt 1 declined, retried after 60 s
    s.clock.advance(60);
    const [claim] = await claimDueAttempts(s.app, { limit: 10 });
    expect(claim!.attempt).toBe(2);
    const declined = await chargeClaim(s.app, claim!);
    await cancelSchedule(s.app, s.integrator, id);
    expect(await recordClaimOutcome(s.app, claim!, declined)).toBe('failed');
    expect(await s.scheduleRow(id)).toMatchObject({ status: 'cancelled', consecutiveFailures: 1, suspendedAt: null });
    expect(await s.eventsOf('schedule.suspended')).toEqual([]);
  });
});

describe('scheduler › recording', () => {
  it('suspends without e-mailing a customer who asked for no notifications; the suspension names the failed transaction', async () => {
    const s = await setup({ PAYLINK_SCHEDULE_RETRY_SECONDS: '60', PAYLINK_SCHEDULE_MAX_FAILED_RUNS: '1' });
    const card = await s.registerCard('4000000000000341', { name: 'Ana', email: 'ana@example.com' });
    const id = await s.schedule({ credit_card: { reference: card }, route: { callback_url: 'http://127.0.0.1:9/cb', notify_user: false } });
    s.clock.set('2026-03-02T01:00:05.000Z');
    expect((await runSchedulerTick(s.app)).outcomes).toMatchObject({ retrying: 1, suspended: 0 });
    s.clock.advance(60);
    const tick = await runSchedulerTick(s.app);
    expect(tick.outcomes).toMatchObject({ suspended: 1, failed: 0, retrying: 0 });
    const [run] = await s.runsOf(id);
    expect(run).toMatchObject({
      status: 'failed',
      attempts: 2,
      nextAttemptAt: null,
      completedAt: new Date('2026-03-02T01:01:05.000Z'),
      lastFailureCode: 'card_declined',
    });
    expect(await s.scheduleRow(id)).toMatchObject({
      status: 'suspended',
      suspendedAt: new Date('2026-03-02T01:01:05.000Z'),
      nextRunAt: null,
      consecutiveFailures: 1,
    });
    const [suspended] = await s.eventsOf('schedule.suspended');
    expect(suspended!.emailTo).toBeNull();
    expect(suspended!.callbackUrl).toBe('http://127.0.0.1:9/cb');
    expect(suspended!.data).toMatchObject({
      schedule_reference: id,
      transaction_id: run!.paymentId,
      consecutive_failed_runs: 1,
      failure_code: 'card_declined',
    });
    const failed = await s.eventsOf('schedule.charge_failed');
    expect(failed.map((e) => [e.data.attempt, e.data.will_retry, e.data.next_attempt_at, e.emailTo])).toEqual([
      [1, true, '2026-03-02T09:01:05.000+08:00', null],
      [2, false, null, null],
    ]);
  });

  it('a suspension cancels the retry another occurrence of the schedule is waiting for', async () => {
    const s = await setup({ PAYLINK_SCHEDULE_RETRY_SECONDS: '60', PAYLINK_SCHEDULE_MAX_FAILED_RUNS: '1' });
    const card = await s.registerCard('4000000000000341');
    const id = await s.schedule({ credit_card: { reference: card }, schedule: EVERY_MINUTE });
    s.clock.set('2026-03-02T00:31:05.000Z');
    expect((await runSchedulerTick(s.app)).outcomes).toMatchObject({ retrying: 1 });
    // A minute later: the first occurrence's last attempt fails (suspending the schedule) in the
    // batch where the second occurrence is declined and would wait for its retry.
    s.clock.set('2026-03-02T00:32:05.000Z');
    expect((await runSchedulerTick(s.app)).outcomes).toMatchObject({ suspended: 1, retrying: 1 });
    expect((await s.runsOf(id)).map((r) => [r.dueAt.toISOString(), r.status, r.nextAttemptAt])).toEqual([
      ['2026-03-02T00:31:00.000Z', 'failed', null],
      ['2026-03-02T00:32:00.000Z', 'cancelled', null],
    ]);
    expect((await s.scheduleRow(id)).status).toBe('suspended');
  });

  it('records the same run twice in one batch once', async () => {
    const s = await setup();
    await s.schedule();
    s.clock.set('2026-03-02T01:00:05.000Z');
    const [claim] = await claimDueOccurrences(s.app, { limit: 10 });
    const result = await chargeClaim(s.app, claim!);
    expect(await recordClaimOutcomes(s.app, [])).toEqual([]);
    expect(
      await recordClaimOutcomes(s.app, [
        { claim: claim!, result },
        { claim: claim!, result },
      ]),
    ).toEqual(['succeeded', 'already_recorded']);
    expect(await s.count(payments)).toBe(1);
    expect(await s.eventsOf('schedule.charge_succeeded')).toHaveLength(1);
  });

  it('a charge without any customer name records no customer; its success event carries no retry', async () => {
    const s = await setup();
    const card = await s.registerCard('4242424242424242', { email: 'ana@example.com' });
    expect(await s.card(card)).toMatchObject({ customerName: null, holderName: null });
    const id = await s.schedule({ credit_card: { reference: card } });
    s.clock.set('2026-03-02T01:00:05.000Z');
    await runSchedulerTick(s.app);
    const [run] = await s.runsOf(id);
    const [payment] = await s.app.db.select().from(payments).where(eq(payments.id, run!.paymentId!));
    expect(payment!.customer).toEqual({});
    const [event] = await s.eventsOf('schedule.charge_succeeded');
    expect(event!.data).not.toHaveProperty('will_retry');
    expect(event!.data).not.toHaveProperty('next_attempt_at');
  });

  it('a retry that succeeds keeps the last failure it recovered from and resets the count of failed occurrences', async () => {
    const s = await setup();
    const card = await s.registerCard('4000000000000341');
    const id = await s.schedule({ credit_card: { reference: card } });
    await s.app.db.update(schedules).set({ consecutiveFailures: 2 }).where(eq(schedules.id, id));
    s.clock.set('2026-03-02T01:00:05.000Z');
    await runSchedulerTick(s.app);
    expect(await s.runsOf(id)).toMatchObject([{ status: 'retrying', lastFailureCode: 'card_declined', lastFailureMessage: expect.any(String) }]);
    const [declinedRun] = await s.runsOf(id);
    // The customer's bank now approves: the registration's card is one that charges.
    await s.app.db
      .update(cardRegistrations)
      .set({ cardToken: (await s.card(ACME_CARD)).cardToken })
      .where(eq(cardRegistrations.reference, card));
    s.clock.advance(3600);
    expect((await runSchedulerTick(s.app)).outcomes).toMatchObject({ succeeded: 1 });
    expect(await s.runsOf(id)).toMatchObject([
      { status: 'succeeded', attempts: 2, lastFailureCode: 'card_declined', lastFailureMessage: declinedRun!.lastFailureMessage, nextAttemptAt: null },
    ]);
    expect((await s.scheduleRow(id)).consecutiveFailures).toBe(0);
  });
});

describe('scheduler › a tick when something fails', () => {
  it('logs each recorded charge, and a batch the sandbox refuses, then charges it one at a time', async () => {
    const s = await setup();
    const id = await s.schedule();
    const batchCharge = sandboxOf(s.app).acquirer.chargeSavedCards.bind(sandboxOf(s.app).acquirer);
    sandboxOf(s.app).acquirer.chargeSavedCards = async () => {
      throw new Error('batch refused');
    };
    try {
      s.clock.set('2026-03-02T01:00:05.000Z');
      const from = s.logs.length;
      const tick = await runSchedulerTick(s.app);
      expect(tick).toEqual({
        claimed: 1,
        outcomes: { succeeded: 1, retrying: 0, failed: 0, suspended: 0, already_recorded: 0, awaiting_customer: 0, missed: 0, error: 0 },
      });
      const [run] = await s.runsOf(id);
      const lines = s.logLines(from).filter((l) => l.component === 'scheduler');
      expect(lines.map((l) => [l.level, l.msg])).toEqual([
        ['warn', 'scheduled charges not taken as a batch; charging them one at a time'],
        ['debug', 'scheduled charge recorded'],
      ]);
      expect(lines[0]).toMatchObject({ runs: 1, error: { message: 'batch refused' } });
      expect(lines[1]).toMatchObject({ run: run!.id, schedule: id, attempt: 1, outcome: 'succeeded' });
    } finally {
      sandboxOf(s.app).acquirer.chargeSavedCards = batchCharge;
    }
  });

  it('a charge the acquirer does not answer is an error of the tick, logged; after the lease it is charged again with the same key, once', async () => {
    const s = await setup({}, { stripeForOther: true });
    const saved = await stripeCard(s);
    const id = await s.schedule(
      { credit_card: { reference: saved.reference }, payment: { description: 'Monthly plan', amount: 12, currency: 'USD', merchant_reference_id: 'plan-1' } },
      { integrator: saved.integrator, secret: OTHER_SECRET },
    );
    s.clock.set('2026-03-02T01:00:05.000Z');
    const from = s.logs.length;
    const requests = stripe.requests.length;
    stripe.failNext(1);
    const tick = await runSchedulerTick(s.app);
    expect(tick.outcomes).toMatchObject({ error: 1, succeeded: 0 });
    const [run] = await s.runsOf(id);
    expect(run).toMatchObject({ status: 'pending', attempts: 1, paymentId: null });
    const failure = s.logLines(from).find((l) => l.level === 'error');
    expect(failure).toMatchObject({ component: 'scheduler', msg: 'scheduled charge interrupted; it will be recovered', run: run!.id, schedule: id });

    s.clock.advance(301);
    expect((await runSchedulerTick(s.app)).outcomes).toMatchObject({ succeeded: 1, error: 0 });
    expect(stripe.requests.slice(requests).map((r) => `${r.method} ${r.path} ${r.idempotencyKey}`)).toEqual([
      `POST /v1/payment_intents schedule-run:${run!.id}:1`,
      `POST /v1/payment_intents schedule-run:${run!.id}:1`,
    ]);
    const [paid] = await s.runsOf(id);
    const [payment] = await s.app.db.select().from(payments).where(eq(payments.id, paid!.paymentId!));
    const intent = stripe.intents().find((i) => i.latest_charge === payment!.acquirerReference)!;
    expect(intent).toMatchObject({
      amount: 1200,
      currency: 'usd',
      customer: saved.customer,
      payment_method: saved.token,
      description: 'Monthly plan',
      metadata: { paylink_reference: run!.id },
      status: 'succeeded',
    });
  });

  it('an off-session charge the bank wants authenticated, for a customer without an e-mail, is a plain decline retried later', async () => {
    const s = await setup({}, { stripeForOther: true });
    const saved = await stripeCard(s, 'pm_card_authenticationRequired');
    const id = await s.schedule(
      { credit_card: { reference: saved.reference }, payment: { description: 'Monthly plan', amount: 12, currency: 'USD', merchant_reference_id: 'plan-1' } },
      { integrator: saved.integrator, secret: OTHER_SECRET },
    );
    s.clock.set('2026-03-02T01:00:05.000Z');
    expect((await runSchedulerTick(s.app)).outcomes).toMatchObject({ retrying: 1, awaiting_customer: 0 });
    expect(await s.runsOf(id)).toMatchObject([{ status: 'retrying', lastFailureCode: 'card_declined', checkoutSessionId: null }]);
    expect(await s.eventsOf('schedule.payment_link_sent')).toEqual([]);
  });

  it('charges at most PAYLINK_SCHEDULER_BATCH due occurrences per tick unless told otherwise (400 by default)', async () => {
    const s = await setup({ PAYLINK_SCHEDULER_BATCH: '60' });
    const id = await s.schedule();
    const row = await s.scheduleRow(id);
    await s.app.db
      .insert(schedules)
      .values(Array.from({ length: 60 }, (_, n) => ({ ...row, id: `sch_copy_${String(n).padStart(3, '0')}`, payloadHash: `copy-${n}` })));
    s.clock.set('2026-03-02T01:00:05.000Z');
    expect((await runSchedulerTick(s.app)).outcomes.succeeded).toBe(60);
    expect((await runSchedulerTick(s.app)).outcomes.succeeded).toBe(1);
  });

  it('a recording the database refuses leaves the runs pending, counted as errors and logged; they are recorded after the lease', async () => {
    const s = await setup();
    const id = await s.schedule();
    s.clock.set('2026-03-02T01:00:05.000Z');
    const [claim] = await claimDueOccurrences(s.app, { limit: 10 }); // the process dies here
    // The payment's idempotency key is taken (unique), so the recording transaction fails.
    const [blocker] = await s.app.db
      .insert(payments)
      .values({
        id: 'txn_blocker',
        integratorId: s.integrator.id,
        status: 'failed',
        amountMinor: 1n,
        currency: 'PHP',
        idempotencyKey: `schedule-run:${claim!.runId}:1`,
      })
      .returning();
    s.clock.advance(301);
    const from = s.logs.length;
    const tick = await runSchedulerTick(s.app);
    expect(tick.outcomes).toMatchObject({ error: 1, succeeded: 0 });
    expect(s.logLines(from).find((l) => l.level === 'error')).toMatchObject({
      component: 'scheduler',
      msg: 'scheduled charges not recorded; they will be recovered',
      runs: 1,
    });
    expect(await s.runsOf(id)).toMatchObject([{ status: 'pending', attempts: 1, paymentId: null }]);
    await s.app.db.delete(payments).where(eq(payments.id, blocker!.id));
    s.clock.advance(301);
    expect((await runSchedulerTick(s.app)).outcomes).toMatchObject({ succeeded: 1, error: 0 });
    expect(await s.count(sandboxCharges)).toBe(1);
  });
});

describe('scheduler › a tick with payment links', () => {
  it('links that cannot be sent leave their runs pending, counted as errors and logged; sent after the lease; an expired one counts as claimed and missed', async () => {
    const s = await setup();
    // A pay-by-link registration (made while the integrator was on an acquirer without off-session charges).
    const reference = randomUUID();
    await s.app.db.insert(cardRegistrations).values({
      reference,
      integratorId: s.integrator.id,
      status: 'active',
      collection: 'pay_link',
      customerName: 'Ana Cruz',
      customerEmail: 'ana@example.com',
      createdAt: s.clock.now(),
      activatedAt: s.clock.now(),
    });
    const id = await s.schedule({ credit_card: { reference } });
    // The scheduled payments link's slug is held by a link that is not the system one: writing the links fails.
    const slug = `scheduled-payments-${sha256Hex(`paylink-schedule-link:${s.integrator.id}`).slice(0, 16)}`;
    await s.app.db.insert(links).values({
      id: 'lnk_squatter',
      integratorId: s.integrator.id,
      slug,
      title: 'Not the system link',
      currency: 'PHP',
      createdAt: s.clock.now(),
      updatedAt: s.clock.now(),
    });
    s.clock.set('2026-03-02T01:00:05.000Z');
    const from = s.logs.length;
    const tick = await runSchedulerTick(s.app);
    expect(tick).toMatchObject({ claimed: 1, outcomes: { error: 1, awaiting_customer: 0 } });
    expect(s.logLines(from).find((l) => l.level === 'error')).toMatchObject({
      component: 'scheduler',
      msg: 'payment links not sent; they will be recovered',
      runs: 1,
    });
    expect(await s.runsOf(id)).toMatchObject([{ status: 'pending', attempts: 1, checkoutSessionId: null }]);
    expect(await s.count(sandboxCharges)).toBe(0);

    await s.app.db.delete(links).where(eq(links.id, 'lnk_squatter'));
    s.clock.advance(301);
    expect(await runSchedulerTick(s.app)).toMatchObject({ claimed: 1, outcomes: { awaiting_customer: 1, error: 0 } });
    expect(await s.runsOf(id)).toMatchObject([{ status: 'awaiting_customer' }]);
    // The next occurrence: the unpaid link expires (missed) and the new one is sent.
    s.clock.set('2026-03-03T01:00:05.000Z');
    expect(await runSchedulerTick(s.app)).toMatchObject({ claimed: 2, outcomes: { missed: 1, awaiting_customer: 1 } });
  });
});

describe('scheduler › an occurrence paid through its link by a local method', () => {
  it('the e-mailed checkout takes QR Ph like any checkout: paid, the run succeeds with that payment', async () => {
    const s = await setup();
    const reference = randomUUID();
    await s.app.db.insert(cardRegistrations).values({
      reference,
      integratorId: s.integrator.id,
      status: 'active',
      collection: 'pay_link',
      customerName: 'Ana Cruz',
      customerEmail: 'ana@example.com',
      createdAt: s.clock.now(),
      activatedAt: s.clock.now(),
    });
    const id = await s.schedule({ credit_card: { reference } });
    s.clock.set('2026-03-02T01:00:05.000Z');
    expect((await runSchedulerTick(s.app)).outcomes.awaiting_customer).toBe(1);
    const [sent] = await s.eventsOf('schedule.payment_link_sent');
    const token = new URL(String(sent!.data.payment_url)).pathname.split('/')[2]!;
    const started = await startMethodAttempt(s.app, { token, input: { method: 'qrph' } });
    if (started.kind !== 'qr') throw new Error('expected a QR code');
    await s.app.connectors.forSettings('', { provider: 'sandbox' }).simulator!.answer(started.qr.content.split('/').pop()!, 'approve');
    expect((await checkoutStatus(s.app, token))?.status).toBe('succeeded');
    const [run] = await s.runsOf(id);
    const [paid] = await s.app.db.select().from(payments).where(eq(payments.id, run!.paymentId!));
    expect(run).toMatchObject({ status: 'succeeded' });
    expect(paid).toMatchObject({ status: 'succeeded', paymentMethod: 'qrph', scheduleRunId: run!.id });
  });
});

describe.runIf(testDb === 'postgres')('scheduler › row locks (PostgreSQL)', () => {
  /** Runs `lock` in a transaction of its own connection and keeps it open until `release`. */
  async function holdLock(databaseUrl: string, lock: string, params: unknown[]) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query('begin');
    await client.query(lock, params);
    return async () => {
      await client.query('rollback');
      await client.end();
    };
  }
  const within = <T>(p: Promise<T>, ms = 5000) =>
    Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms))]);

  it('a schedule another worker holds is skipped, not waited for; a held card registration does not hold its schedule back', async () => {
    const s = await setup();
    const held = await s.schedule();
    const free = await s.schedule({ schedule: EVERY_MINUTE });
    s.clock.set('2026-03-02T01:00:05.000Z');
    const release = await holdLock(t!.databaseUrl!, 'select 1 from schedules where id = $1 for update', [held]);
    try {
      expect((await within(claimDueOccurrences(s.app, { limit: 10 }))).map((c) => c.scheduleId)).toEqual([free]);
    } finally {
      await release();
    }
    expect((await claimDueOccurrences(s.app, { limit: 10 })).map((c) => c.scheduleId)).toEqual([held]);

    const other = await s.schedule({ schedule: DAILY_AT(10) });
    s.clock.set('2026-03-02T02:00:05.000Z');
    const releaseCard = await holdLock(t!.databaseUrl!, 'select 1 from card_registrations where reference = $1 for update', [ACME_CARD]);
    try {
      const claimed = (await within(claimDueOccurrences(s.app, { limit: 10 }))).map((c) => c.scheduleId).sort();
      expect(claimed).toEqual([free, other].sort());
    } finally {
      await releaseCard();
    }
  });

  it('run now does not wait for a card registration another transaction holds', async () => {
    const s = await setup();
    const id = await s.schedule();
    const release = await holdLock(t!.databaseUrl!, 'select 1 from card_registrations where reference = $1 for update', [ACME_CARD]);
    try {
      expect((await within(runScheduleNow(s.app, s.integrator, id))).outcome).toBe('succeeded');
    } finally {
      await release();
    }
  });

  it('a run another worker holds is skipped, not waited for; a held schedule does not hold its runs back', async () => {
    const s = await setup();
    const a = await s.schedule();
    const b = await s.schedule();
    s.clock.set('2026-03-02T01:00:05.000Z');
    const claims = await claimDueOccurrences(s.app, { limit: 10 });
    expect(claims).toHaveLength(2);
    s.clock.advance(301);
    const runA = claims.find((c) => c.scheduleId === a)!.runId;
    const release = await holdLock(t!.databaseUrl!, 'select 1 from schedule_runs where id = $1 for update', [runA]);
    try {
      expect((await within(claimDueAttempts(s.app, { limit: 10 }))).map((c) => c.scheduleId)).toEqual([b]);
    } finally {
      await release();
    }
    s.clock.advance(301);
    const releaseSchedule = await holdLock(t!.databaseUrl!, 'select 1 from schedules where id = $1 for update', [a]);
    try {
      expect((await within(claimDueAttempts(s.app, { limit: 10 }))).map((c) => c.scheduleId).sort()).toEqual([a, b].sort());
    } finally {
      await releaseSchedule();
    }
  });
});
