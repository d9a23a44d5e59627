import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { integrators, outboxEvents } from '../../../src/db/schema.ts';
import { claimDue, enqueueEvent } from '../../../src/domain/notifications/outbox.ts';
import { createTestApp, provision, type TestApp } from '../../support/app.ts';

/**
 * PostgreSQL only (two connections at once): a worker claiming due events skips an event another
 * worker holds locked (FOR UPDATE SKIP LOCKED) instead of waiting for it.
 */
let t: TestApp;
let holder: pg.Client;

beforeAll(async () => {
  t = await createTestApp({ db: 'postgres' });
  await provision(t);
  holder = new pg.Client({ connectionString: t.databaseUrl });
  await holder.connect();
});
afterAll(async () => {
  await holder?.end();
  await t?.close();
});

it('claims the due events no other worker holds, at once, and leases them', async () => {
  const [acme] = await t.app.db.select().from(integrators).where(eq(integrators.email, 'billing@acme.example'));
  const now = t.app.now();
  const event = (n: number) =>
    enqueueEvent(t.app.db, { integratorId: acme!.id, type: 'payment.succeeded', data: { n }, callbackUrl: 'https://hooks.example/pl', now });
  const held = await event(1);
  const free = await event(2);

  await holder.query('begin');
  await holder.query('select id from outbox_events where id = $1 for update', [held]);
  const claim = claimDue(t.app.db, 'callback', { now, leaseMs: 60_000, limit: 10 });
  const first = await Promise.race([claim, new Promise<'blocked'>((r) => setTimeout(() => r('blocked'), 5000))]);
  await holder.query('rollback');
  await claim;
  expect(first === 'blocked' ? first : first.map((e) => e.id)).toEqual([free]);

  const [leased] = await t.app.db.select().from(outboxEvents).where(eq(outboxEvents.id, free));
  expect(leased!.callbackLockedUntil).toEqual(new Date(now.getTime() + 60_000));
  // Once released, the held event is claimed by the next pass; the leased one is not claimed again.
  expect((await claimDue(t.app.db, 'callback', { now, leaseMs: 60_000, limit: 10 })).map((e) => e.id)).toEqual([held]);
});
