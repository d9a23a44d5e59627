import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { integrators } from '../../../src/db/schema.ts';
import { enqueueEvent } from '../../../src/domain/notifications/outbox.ts';
import { createCallbackSender } from '../../../src/workers/callbacks.ts';
import { call, createTestApp, defaultSeed, provision, startTestServer, type TestApp } from '../../support/app.ts';
import { startWebhookReceiver, verify, type WebhookReceiver } from '../../support/webhook-receiver.ts';

let t: TestApp | undefined;
let server: { url: string; close(): Promise<void> } | undefined;
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  await server?.close();
  await receiver?.close();
  await t?.close();
});

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

async function setup() {
  t = await createTestApp();
  const seed = defaultSeed();
  const seedSecret = newSecret();
  seed.integrators[0]!.webhook_secret = seedSecret;
  await provision(t, seed);
  server = await startTestServer(t.app);
  receiver = await startWebhookReceiver();
  const [acme] = await t.app.db.select().from(integrators).where(eq(integrators.email, 'billing@acme.example'));
  return { seed, seedSecret, integratorId: acme!.id };
}

async function deliverOne(integratorId: string) {
  await enqueueEvent(t!.app.db, { integratorId, type: 'payment.succeeded', data: { transaction_id: 'txn_1' }, callbackUrl: receiver!.url, now: t!.app.now() });
  const sender = createCallbackSender(t!.app);
  await sender.deliverDue();
  await sender.close();
  return receiver!.received.at(-1)!;
}

describe('webhook secret rotation', () => {
  it('POST /api/v1/webhook-secret/rotate returns a new secret; both sign for 24 hours', async () => {
    const { seedSecret, integratorId } = await setup();
    const res = await call(server!.url, 'POST', '/api/v1/webhook-secret/rotate');
    expect(res.status).toBe(200);
    expect(res.json.data.status_code).toBe('OK.00.00');
    const rotated = res.json.data.webhook_secret as string;
    expect(rotated).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Date.parse(res.json.data.previous_secret_valid_until) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
    expect(res.headers.get('cache-control')).toBe('no-store');

    const req = await deliverOne(integratorId);
    expect(verify(rotated, req)).toBeTruthy();
    expect(verify(seedSecret, req)).toBeTruthy();
  });

  it('a restart with the same seed keeps the rotated secret; a changed seed secret rotates again', async () => {
    const { seed, integratorId } = await setup();
    const rotated = (await call(server!.url, 'POST', '/api/v1/webhook-secret/rotate')).json.data.webhook_secret as string;
    await provision(t!, seed);
    const [row] = await t!.app.db.select().from(integrators).where(eq(integrators.id, integratorId));
    expect(t!.app.secrets.open(row!.webhookSecretEnc)).toBe(rotated);

    const next = newSecret();
    seed.integrators[0]!.webhook_secret = next;
    await provision(t!, seed);
    const req = await deliverOne(integratorId);
    expect(verify(next, req)).toBeTruthy();
    expect(verify(rotated, req)).toBeTruthy();
  });

  it('never keeps the new secret anywhere but the sealed column, even with an Idempotency-Key', async () => {
    await setup();
    const res = await call(server!.url, 'POST', '/api/v1/webhook-secret/rotate', { headers: { 'idempotency-key': 'rotate-1' } });
    const secret = res.json.data.webhook_secret as string;
    const again = await call(server!.url, 'POST', '/api/v1/webhook-secret/rotate', { headers: { 'idempotency-key': 'rotate-1' } });
    expect(again.json.data.webhook_secret).not.toBe(secret);
    const stored = await t!.app.db.execute(sql`select count(*)::int as n from idempotency_keys where response_body like ${`%${secret.slice(6, 30)}%`}`);
    expect((stored as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(0);
    for (const line of t!.logs) expect(line).not.toContain(secret.slice(6));
  });

  it('needs the Authorization token and takes only POST', async () => {
    await setup();
    expect((await call(server!.url, 'POST', '/api/v1/webhook-secret/rotate', { token: null })).status).toBe(401);
    expect((await call(server!.url, 'GET', '/api/v1/webhook-secret/rotate')).status).toBe(405);
  });
});
