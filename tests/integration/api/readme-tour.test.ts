import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Seed } from '../../../src/schemas/provisioning.ts';
import { call, useServedApp } from '../../support/app.ts';
import { CARD_EXPIRY } from '../../support/cards.ts';

/**
 * The README's curl tour, step by step, on the example seed (examples/seed.json) and with the
 * schedule JWT from `scripts/sign-schedule.mjs` run exactly as the README runs it. The browser
 * steps (paying the checkout, entering the card) send what those pages' forms send.
 */
const root = process.cwd();
const seed = JSON.parse(readFileSync(join(root, 'examples/seed.json'), 'utf8')) as Seed;
for (const integrator of seed.integrators) for (const link of integrator.links ?? []) delete link.logo; // the logo file sits beside the seed, not the test's copy
const served = useServedApp({}, seed);
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const TOKEN = seed.integrators[0]!.token!;
const api = (method: string, path: string, body?: unknown) => call(served.server.url, method, path, { token: TOKEN, body });
const card = { number: '4242 4242 4242 4242', expiry: CARD_EXPIRY, cvc: '123', name: 'Ana Reyes' };

/** `npm run -s sign-schedule -- …` is `node scripts/sign-schedule.mjs …`. */
function signSchedule(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [join(root, 'scripts/sign-schedule.mjs'), ...args], {
    cwd: root,
    env: { ...process.env, PAYLINK_JWT_SECRET: '', ...env },
    encoding: 'utf8',
  });
  return { status: result.status, jwt: result.stdout.trim(), stderr: result.stderr };
}

describe('README tour', () => {
  it('the README runs these very commands', () => {
    expect(readme).toContain('TOKEN=acme_live_token_change_me_0123456789abcdef');
    expect(readme).toContain('JWT=$(npm run -s sign-schedule -- examples/schedule-monthly.json --card $CARD --seed examples/seed.json)');
    expect(readme).toContain('JWT=$(npm run -s sign-schedule -- examples/schedule-every-minute.json --card $CARD --seed examples/seed.json)');
    expect(readme).toContain("field 'data.items.at(0).data.transaction_id'");
    expect(readme).toContain('CARD=$(echo "$REG" | field data.reference)');
  });

  let txn = '';
  let cardRef = '';

  it('steps 2–3: a dynamic link paid in the browser, found in the events, refunded in part, in full, and refused once more', async () => {
    const dynamic = await call(served.server.url, 'POST', '/pay/acme-books', {
      token: null,
      body: {
        key: TOKEN,
        customer: { first_name: 'Ana', last_name: 'Reyes', contact: { email: 'ana@example.com' } },
        payment: { description: 'Order 1001', merchant_reference_id: 'INV-1001' },
        route: { notify_user: 'true' },
      },
    });
    expect(dynamic.status).toBe(200);
    const paid = await call(served.server.url, 'POST', `${new URL(dynamic.json.link).pathname}/pay`, { token: null, body: { fields: {}, card } });
    expect(paid.json.data.status_code).toBe('OK.03.00');

    const events = await api('GET', '/api/v1/events?type=payment.succeeded&limit=1');
    txn = events.json.data.items.at(0).data.transaction_id;
    expect(txn).toBe(paid.json.data.transaction_id);
    expect((await api('POST', '/api/v1/refund', { transaction_id: txn, notify_user: true, reason: 'Damaged box', amount: 50 })).json.data.status_code).toBe(
      'OK.04.00',
    );
    expect((await api('POST', '/api/v1/refund', { transaction_id: txn, notify_user: 'true', reason: 'Order cancelled' })).json.data).toMatchObject({
      status_code: 'OK.02.00',
      amount: '200.00',
    });
    const again = await api('POST', '/api/v1/refund', { transaction_id: txn, notify_user: 'false', reason: 'Again' });
    expect([again.status, again.json.data.status_code]).toEqual([200, 'ER.20.20']);
    expect((await api('GET', `/api/v1/transactions/${txn}`)).json.data.transaction.refund_state).toBe('refunded');
  });

  it('step 4: the card the customer registers becomes active', async () => {
    const reg = await api('POST', '/api/v1/card-registrations', { customer: { name: 'Ana Reyes', email: 'ana@example.com' } });
    cardRef = reg.json.data.reference;
    const entered = await call(served.server.url, 'POST', `${new URL(reg.json.data.link).pathname}/card`, { token: null, body: { fields: {}, card } });
    expect(entered.json.data.status_code).toBe('OK.11.00');
    expect((await api('GET', `/api/v1/card-registrations/${cardRef}`)).json.data.card_registration.status).toBe('active');
  });

  it('step 5: "monthly" charges that card at 09:00 on the 1st of every month, signed with the seed’s secret', async () => {
    const signed = signSchedule(['examples/schedule-monthly.json', '--card', cardRef, '--seed', 'examples/seed.json']);
    expect(signed.status, signed.stderr).toBe(0);
    expect(signed.jwt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const created = await api('POST', '/api/v1/schedule', { payload: signed.jwt });
    expect(created.json.data.status_code).toBe('OK.12.00');
    const schedule = (await api('GET', `/api/v1/schedules/${created.json.data.reference}`)).json.data.schedule;
    expect(schedule.card_registration_reference).toBe(cardRef);
    expect(schedule.recurrence).toEqual({ second: '0', minute: '0', hour: '9', day_of_month: '1', month: '*', day_of_week: '*' });
    expect(schedule.next_run_at).toMatch(/^\d{4}-\d{2}-01T09:00:00\.000\+08:00$/);
    expect((await api('DELETE', '/api/v1/schedule', { reference: created.json.data.reference })).json.data.status_code).toBe('OK.12.20');
  });

  it('step 5: the testing example fires every minute, at second 0', async () => {
    const signed = signSchedule(['examples/schedule-every-minute.json', '--card', cardRef, '--seed', 'examples/seed.json']);
    const created = await api('POST', '/api/v1/schedule', { payload: signed.jwt });
    expect(created.json.data.status_code).toBe('OK.12.00');
    const schedule = (await api('GET', `/api/v1/schedules/${created.json.data.reference}`)).json.data.schedule;
    const next = Date.parse(schedule.next_run_at);
    expect(next - Date.now()).toBeGreaterThan(0);
    expect(next - Date.now()).toBeLessThanOrEqual(60_000);
    expect(new Date(next).getUTCSeconds()).toBe(0);
  });

  it('sign-schedule signs with the demo credentials when no seed is named, and says how to use it when misused', () => {
    const dir = served.t.dataDir;
    writeFileSync(join(dir, 'demo-credentials.json'), JSON.stringify({ token: 'x', secret: 'demo-secret-0123456789' }));
    const demo = signSchedule(['examples/schedule-monthly.json'], { PAYLINK_DATA_DIR: dir });
    expect(demo.status).toBe(0);
    const [, claims] = demo.jwt.split('.');
    expect(JSON.parse(Buffer.from(claims!, 'base64url').toString()).data.credit_card.reference).toBe('6f1c1b0e-8a53-4d0e-9d0e-2f5b2a1c9e11');
    const missing = signSchedule(['no-such-file.json', '--seed', 'examples/seed.json']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('usage: npm run -s sign-schedule');
    expect(signSchedule([]).status).toBe(2);
  });
});
