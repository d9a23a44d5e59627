import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_SECRET, TEST_TOKEN, useServedApp } from '../../support/app.ts';

/** clients/typescript/example.ts, run as a user runs it, against a live paylink. */
const served = useServedApp();

function runExample(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(process.cwd(), 'clients/typescript/example.ts')], { env: { ...process.env, ...env }, stdio: 'pipe' });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('typed client › example', () => {
  it('creates a dynamic link, pays it, refunds part, registers a card, schedules it monthly, lists events and cancels', async () => {
    const { code, out } = await runExample({
      PAYLINK_URL: served.server.url,
      PAYLINK_TOKEN: TEST_TOKEN,
      PAYLINK_JWT_SECRET: TEST_SECRET,
      PAYLINK_LINK: 'acme-books',
    });
    expect(code, out).toBe(0);
    for (const step of ['payment: OK.03.00', 'partial refund: OK.04.00', 'card entered: OK.11.00', 'schedule: OK.12.00', 'cancel schedule: OK.12.20']) {
      expect(out).toContain(step);
    }
    expect(out).toMatch(/paid 250\.00 PHP, refunded 10\.00, refundable 240\.00/);
    expect(out).toMatch(/INV-\d+: txn_[0-9a-f]{32}, paid by Ana Reyes/);
    expect(out).toMatch(/link gift-\d+ \(static\): 500\.00 PHP at \S+\/pay\/gift-\d+/);
    // Monthly: the next run is 09:00 on the 1st of a month, in the schedule's +08:00.
    expect(out).toMatch(/sch_[0-9a-f]+: active, next run \d{4}-\d{2}-01T09:00:00\.000\+08:00/);
    for (const type of ['payment.succeeded', 'refund.succeeded', 'card_registration.completed', 'schedule.created']) expect(out).toContain(type);
  });

  it('stops with the server’s own words when a step fails (a wrong token)', async () => {
    const { code, out } = await runExample({
      PAYLINK_URL: served.server.url,
      PAYLINK_TOKEN: 'wrong',
      PAYLINK_JWT_SECRET: TEST_SECRET,
      PAYLINK_LINK: 'acme-books',
    });
    expect(code).not.toBe(0);
    expect(out).toContain('ER.01.01');
  });
});
