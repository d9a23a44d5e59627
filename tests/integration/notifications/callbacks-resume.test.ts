import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { integrators } from '../../../src/db/schema.ts';
import { applyProvisioning } from '../../../src/domain/integrators/provisioning.ts';
import { enqueueEvent } from '../../../src/domain/notifications/outbox.ts';
import { createLogger } from '../../../src/log.ts';
import { call, createTestDatabaseUrl, defaultSeed, testDb } from '../../support/app.ts';
import { startWebhookReceiver, verify } from '../../support/webhook-receiver.ts';

/**
 * The built server (dist/paylink/server.mjs) is killed with SIGKILL while a callback is in
 * flight; after a restart the same event is delivered again with the same webhook-id.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'paylink-resume-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string; exited: Promise<void> }> {
  const child = spawn(process.execPath, [join(process.cwd(), 'dist/paylink/server.mjs')], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /paylink is running at (http:\/\/\S+)/.exec(output);
      if (match) resolve({ child, url: match[1]!, exited });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before it was ready:\n${output}`)));
  });
}

describe('callbacks › kill -9', () => {
  it('resumes an interrupted delivery after a restart, with the same webhook-id', async () => {
    const receiver = await startWebhookReceiver();
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const env: Record<string, string> = {
      PAYLINK_DATA_DIR: dataDir,
      PAYLINK_MASTER_KEY: randomBytes(32).toString('base64'),
      HOST: '127.0.0.1',
      PORT: '0',
      PAYLINK_WORKER_POLL_MS: '100',
      PAYLINK_WEBHOOK_TIMEOUT_MS: '2000',
      PAYLINK_ALLOW_PRIVATE_CALLBACKS: '1',
      LOG_LEVEL: 'warn',
    };
    if (testDb === 'postgres') env.DATABASE_URL = await createTestDatabaseUrl();

    // Prepare the database as the server will find it: provisioned, one event waiting.
    const seed = defaultSeed();
    seed.integrators[0]!.webhook_secret = secret;
    const seedPath = join(dataDir, 'seed.json');
    writeFileSync(seedPath, JSON.stringify(seed));
    const app = await createApp({ config: loadConfig(env), log: createLogger('silent') });
    await applyProvisioning(app, seedPath);
    const [acme] = await app.db.select().from(integrators).where(eq(integrators.email, 'billing@acme.example'));
    const eventId = await enqueueEvent(app.db, {
      integratorId: acme!.id,
      type: 'payment.succeeded',
      data: { transaction_id: 'txn_resume', amount: '250.00', currency: 'PHP', status: 'succeeded' },
      callbackUrl: `${receiver.url}/hook`,
      now: new Date(),
    });
    await app.database.close();

    // First run: the receiver holds the request; the server is killed mid-delivery.
    receiver.respond.push(() => {
      /* never answers */
    });
    const first = await startServer(env);
    await receiver.waitFor(1);
    first.child.kill('SIGKILL');
    await first.exited;

    // Second run: the lapsed lease makes the event due again.
    const second = await startServer(env);
    await receiver.waitFor(2);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId]);
    expect(verify(secret, receiver.received[1]!)).toMatchObject({ id: eventId, data: { transaction_id: 'txn_resume' } });

    let event: any;
    for (let i = 0; i < 100; i++) {
      const res = await call(second.url, 'GET', '/api/v1/events');
      event = res.json.data.items.find((e: { id: string }) => e.id === eventId);
      if (event.callback.state === 'delivered') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(event.callback).toMatchObject({ state: 'delivered', attempts: 1 });
    expect(event.callback.attempt_log).toMatchObject([{ attempt: 1, status_code: 200 }]);

    second.child.kill('SIGTERM');
    await second.exited;
    await receiver.close();
  });
});
