import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { auditLog, integratorAcquirers, integrators } from '../../../src/db/schema.ts';
import { startWorkers } from '../../../src/workers/index.ts';
import { CONSOLE_USERS, call, OTHER_TOKEN, useServedApp } from '../../support/app.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';
import { CARDS, createPayment } from '../../support/payments.ts';

/** Home's figures and chart, the sessions list on Your account, and the audit log's retention. */
const clock = { now: new Date('2026-03-02T09:00:00Z') };
const at = (iso: string) => {
  clock.now = new Date(iso);
};
const served = useServedApp({ now: () => clock.now });
const { otherOwner } = CONSOLE_USERS;

async function signedIn(user: { email: string; password: string }, userAgent = 'console-test') {
  const c = new ConsoleClient(served.server.url, { userAgent });
  const res = await c.signIn(user.email, user.password);
  expect(res.status, textOf(res.html)).toBe(303);
  return c;
}
const pay = (amount: string, opts: { card?: string; integrator?: string; currency?: string } = {}) =>
  createPayment(served.t, {
    integrator: opts.integrator ?? 'Other Shop',
    currency: opts.currency ?? 'USD',
    amount,
    card: opts.card,
    callbackUrl: null,
    notifyUser: false,
  });

describe('console › home', () => {
  it('shows today’s and the last 30 days’ paid volume, counts and refunds per currency, with a bar per day', async () => {
    at('2026-01-30T12:00:00Z'); // outside the window (it starts 2026-02-01)
    await pay('99.00');
    at('2026-02-01T00:00:00Z'); // the window's first day
    await pay('5.00');
    at('2026-02-27T15:00:00Z');
    await pay('40.00');
    at('2026-03-02T08:00:00Z');
    await pay('10.00');
    const refunded = await pay('25.50');
    await pay('60.00', { card: CARDS.declined }); // failed: not counted
    await pay('500.00', { integrator: 'Acme Books', currency: 'PHP' }); // another integrator's
    const refund = await call(served.server.url, 'POST', '/api/v1/refund', {
      token: OTHER_TOKEN,
      body: { transaction_id: refunded.id, notify_user: false, reason: 'Damaged box', amount: 5.5 },
    });
    expect(refund.json.data.status_code).toBe('OK.04.00'); // partial refund
    at('2026-03-02T09:00:00Z');

    const owner = await signedIn(otherOwner);
    const home = await owner.get('/console');
    expect(home.status).toBe(200);
    const text = textOf(home.html);
    expect(text).toContain('USD Today $35.50 2 payments Last 30 days $80.50 4 payments Refunded, 30 days $5.50 1 refund Net, 30 days $75.00');
    expect(text).not.toContain('PHP');
    expect(text).not.toContain('$99.00');
    // The chart: one bar for each of the three days with payments, titled for screen readers.
    const svg = /<svg[^>]*class="chart-bars"[\s\S]*?<\/svg>/.exec(home.html)![0];
    expect(svg).toMatch(/role="img"/);
    expect(svg).toContain('<title id="chart-usd-title">USD paid per day, 2026-02-01 to 2026-03-02</title>');
    expect(svg).toContain('Busiest day 2026-02-27: $40.00.');
    const bars = [...svg.matchAll(/<rect[^>]*class="chart-bar"[^>]*>/g)];
    expect(bars).toHaveLength(3);
    const heights = bars.map((b) => Number(/height="([\d.]+)"/.exec(b[0])![1]));
    // Bars stand against a round top just above the busiest day ($40.00 of $50), which the amount axis names.
    expect(Math.max(...heights)).toBe(80);
    expect(textOf(/<ul class="chart-y"[\s\S]*?<\/ul>/.exec(home.html)![0])).toBe('$50 $25 $0');
    expect(textOf(/<p class="chart-x"[\s\S]*?<\/p>/.exec(home.html)![0])).toBe('2026-02-01 2026-02-16 2026-03-02');
    // The caption says what the chart counts, inside the currency's panel.
    expect(text).toContain('100 % Succeeded payments by the day they were made (UTC), 2026-02-01 to 2026-03-02; the table adds refunds. $50 $25 $0');
    expect(svg).toContain('<title>2026-03-02: $35.50 from 2 payments</title>');
    // The table alternative lists the same days.
    expect(text).toContain('2026-03-02 $35.50 2 $5.50 (1) 2026-02-27 $40.00 1 $0.00 (0) 2026-02-01 $5.00 1 $0.00 (0)');
  });

  it('lists the latest payments and the latest failed ones, each linking to its page', async () => {
    at('2026-03-02T08:30:00Z');
    const declined = await pay('61.00', { card: CARDS.declined });
    at('2026-03-02T08:40:00Z');
    const latest = await pay('12.00');
    at('2026-03-02T09:00:00Z');
    const owner = await signedIn(otherOwner);
    const home = await owner.get('/console');
    const section = (id: string) => new RegExp(`<section[^>]*aria-labelledby="${id}"[\\s\\S]*?</section>`).exec(home.html)![0];
    const ids = (html: string) => [...html.matchAll(/href="\/console\/payments\/(txn_[0-9a-f]{32})"/g)].map((m) => m[1]);
    const recent = ids(section('recent-payments'));
    expect(recent[0]).toBe(latest.id);
    expect(recent).toContain(declined.id);
    expect(recent.length).toBeLessThanOrEqual(5);
    const failed = section('failed-payments');
    expect(ids(failed)[0]).toBe(declined.id);
    expect(ids(failed)).not.toContain(latest.id);
    expect(textOf(failed)).toContain('$61.00 Failed');
    expect(failed).toContain('href="/console/payments?status=failed"');
  });

  it('offers owners a New link action and says Test mode while the acquirer is the sandbox', async () => {
    const owner = await signedIn(otherOwner);
    const home = await owner.get('/console');
    expect(home.html).toMatch(/<a class="button" href="\/console\/links\/new">New link<\/a>/);
    for (const path of ['/console', '/console/payments', '/console/account']) {
      expect(textOf((await owner.get(path)).html), path).toContain('Test mode — payments go to the sandbox acquirer: no money moves.');
    }
    const [other] = await served.t.app.db.select().from(integrators).where(eq(integrators.name, 'Other Shop'));
    await served.t.app.db.insert(integratorAcquirers).values({ integratorId: other!.id, provider: 'paymongo', webhookId: 'wh_home_test_mode' });
    try {
      const live = await owner.get('/console');
      expect(live.status).toBe(200);
      expect(live.html).not.toContain('data-testid="console-test-mode"');
    } finally {
      await served.t.app.db.delete(integratorAcquirers).where(eq(integratorAcquirers.integratorId, other!.id));
    }
  });

  it('shows staff the same figures, without the owner-only links', async () => {
    const staff = await signedIn(CONSOLE_USERS.acmeStaff);
    const home = await staff.get('/console');
    expect(home.status).toBe(200);
    expect(textOf(home.html)).toContain('PHP Today ₱500.00 1 payment');
    expect(home.html).not.toContain('href="/console/developers"');
    expect(home.html).not.toContain('href="/console/links/new"');
  });

  it('says so when there were no payments in the window', async () => {
    at('2026-06-01T09:00:00Z');
    const owner = await signedIn(otherOwner);
    expect(textOf((await owner.get('/console')).html)).toContain('No payments in the last 30 days (2026-05-03 to 2026-06-01, UTC).');
    at('2026-03-02T09:00:00Z');
  });
});

describe('console › your sessions', () => {
  const LAPTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

  it('lists the user’s sessions with when, where and the browser in words, and signs the others out', async () => {
    const laptop = await signedIn(otherOwner, LAPTOP);
    const phone = await signedIn(otherOwner, PHONE);
    const page = await laptop.get('/console/account');
    const text = textOf(page.html);
    expect(text).toContain('Your sessions');
    expect(text).toMatch(/2026-03-02 09:00 UTC \(this session\) 2026-03-02 09:00 UTC 127\.0\.0\.1 Chrome 131 on Windows 10/);
    expect(text).toContain('Safari 17 on iPhone (iOS 17.4)');
    // The raw User-Agent is kept for support, on hover only.
    expect(text).not.toContain('AppleWebKit');
    expect(page.html).toContain(`title="${PHONE}"`);

    const res = await laptop.post('/console/account', { action: 'end-others' });
    expect(res.status).toBe(200);
    expect(textOf(res.html)).toMatch(/\d+ other sessions? signed out\./);
    expect(textOf(res.html)).not.toContain('Safari 17 on iPhone');
    expect((await phone.get('/console')).status).toBe(303);
    expect((await laptop.get('/console')).status).toBe(200);
    const entries = await served.t.app.db.select().from(auditLog).where(eq(auditLog.action, 'sessions.ended_others'));
    expect(entries.map((e) => e.actorEmail)).toContain(otherOwner.email);
  });

  it('drops a session that ended by the idle timeout from the list', async () => {
    at('2026-03-03T09:00:00Z');
    await signedIn(otherOwner, PHONE);
    at('2026-03-03T09:10:00Z');
    const laptop = await signedIn(otherOwner, LAPTOP);
    expect(textOf((await laptop.get('/console/account')).html)).toContain('Safari 17 on iPhone');
    at('2026-03-03T09:16:00Z'); // the phone's session: 16 minutes without use; the laptop's: 6
    const text = textOf((await laptop.get('/console/account')).html);
    expect(text).toContain('Chrome 131 on Windows 10');
    expect(text).not.toContain('Safari 17 on iPhone');
    expect(text).not.toContain('Sign out other sessions');
  });
});

describe('console › audit retention', () => {
  it('refuses a retention under a year (PCI DSS 10.5.1)', () => {
    expect(() => loadConfig({ PAYLINK_AUDIT_RETENTION_DAYS: '90' })).toThrow(ConfigError);
    expect(loadConfig({}).console.auditRetentionDays).toBeGreaterThanOrEqual(365);
    expect(loadConfig({ PAYLINK_AUDIT_RETENTION_DAYS: '730' }).console.auditRetentionDays).toBe(730);
  });

  it('lets the workers delete entries older than PAYLINK_AUDIT_RETENTION_DAYS, keeping the rest', async () => {
    const days = served.t.app.config.console.auditRetentionDays;
    const ago = (d: number) => new Date(clock.now.getTime() - d * 86_400_000);
    const entry = (target: string, when: Date) => ({ integratorId: null, action: 'sign_in.failed', target, at: when });
    await served.t.app.db.insert(auditLog).values([entry('too old', ago(days + 1)), entry('just kept', ago(days - 1))]);
    const workers = startWorkers(served.t.app);
    try {
      for (let i = 0; i < 100; i++) {
        const rows = await served.t.app.db.select({ target: auditLog.target }).from(auditLog).where(eq(auditLog.target, 'too old'));
        if (rows.length === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await workers.stop();
    }
    const targets = (await served.t.app.db.select({ target: auditLog.target }).from(auditLog)).map((r) => r.target);
    expect(targets).not.toContain('too old');
    expect(targets).toContain('just kept');
    expect(targets).toContain(otherOwner.email); // today's sign-ins stay
  });
});
