import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configSchema, loadConfig, publicOrigin } from '../../src/config.ts';

describe('config', () => {
  it('has working defaults for a newcomer', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ host: '127.0.0.1', port: 4321, dataDir: './data', databaseUrl: undefined, logLevel: 'info', checkoutMaxAttempts: 5 });
    expect(config.scheduleRetrySeconds).toEqual([3600, 21600, 86400]);
    // The scheduler's defaults drain 10,000 due charges in ~2 s on PostgreSQL (docs/schedules.md).
    expect(config).toMatchObject({ schedulerLoops: 3, schedulerBatch: 400 });
    expect(publicOrigin(config)).toBe('http://127.0.0.1:4321');
  });

  it('stops with a message naming each bad variable', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', PAYLINK_MASTER_KEY: 'short' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'PAYLINK_MASTER_KEY']) expect(message).toContain(`${name}:`);
      expect(message).toContain('"eighty"');
    }
  });

  it('makes the embedded database flush each commit to the disk unless told `off`', () => {
    expect(loadConfig({}).pgliteSync).toBe('commit');
    expect(loadConfig({ PAYLINK_PGLITE_SYNC: 'off' }).pgliteSync).toBe('off');
    for (const bad of ['never', 'fsync', '0']) expect(() => loadConfig({ PAYLINK_PGLITE_SYNC: bad }), bad).toThrow(/PAYLINK_PGLITE_SYNC:/);
  });

  it('keeps the scheduler batch between 1 and 1000', () => {
    for (const bad of ['0', '1001', 'many', '2.5']) expect(() => loadConfig({ PAYLINK_SCHEDULER_BATCH: bad }), bad).toThrow(/PAYLINK_SCHEDULER_BATCH:/);
    expect(loadConfig({ PAYLINK_SCHEDULER_BATCH: '1000' }).schedulerBatch).toBe(1000);
  });

  it('holds provider webhooks to 300 s either way by default (Stripe’s library’s tolerance); never 0, which would turn the check off', () => {
    expect(loadConfig({}).providerWebhookToleranceSeconds).toBe(300);
    expect(loadConfig({ PAYLINK_PROVIDER_WEBHOOK_TOLERANCE_SECONDS: '60' }).providerWebhookToleranceSeconds).toBe(60);
    for (const bad of ['0', '-5', 'soon']) {
      expect(() => loadConfig({ PAYLINK_PROVIDER_WEBHOOK_TOLERANCE_SECONDS: bad }), bad).toThrow(/PAYLINK_PROVIDER_WEBHOOK_TOLERANCE_SECONDS:/);
    }
  });

  it('reads lists and flags', () => {
    const config = loadConfig({ PAYLINK_SCHEDULE_RETRY_SECONDS: '60, 120', PAYLINK_ALLOW_PRIVATE_CALLBACKS: '1', PUBLIC_URL: 'https://pay.example.com/' });
    expect(config.scheduleRetrySeconds).toEqual([60, 120]);
    expect(config.allowPrivateCallbacks).toBe(true);
    expect(publicOrigin(config)).toBe('https://pay.example.com');
    expect(() => loadConfig({ PAYLINK_SCHEDULE_RETRY_SECONDS: '60,-1' })).toThrow('PAYLINK_SCHEDULE_RETRY_SECONDS');
  });

  it('keeps the console account settings within PCI DSS 4.0 (idle ≤ 15 min, lockout after ≤ 10 failures for ≥ 30 min, audit kept ≥ 12 months)', () => {
    expect(loadConfig({}).console).toEqual({
      idleMinutes: 15,
      sessionHours: 12,
      lockoutAttempts: 10,
      lockoutMinutes: 30,
      inviteHours: 72,
      passwordCheckQueue: 256,
      auditRetentionDays: 400,
    });
    expect(loadConfig({ PAYLINK_PASSWORD_CHECK_QUEUE: '8' }).console.passwordCheckQueue).toBe(8);
    expect(() => loadConfig({ PAYLINK_PASSWORD_CHECK_QUEUE: '0' })).toThrow('PAYLINK_PASSWORD_CHECK_QUEUE');
    expect(() => loadConfig({ PAYLINK_AUDIT_RETENTION_DAYS: '364' })).toThrow('PAYLINK_AUDIT_RETENTION_DAYS: must be at least 365');
    expect(loadConfig({ PAYLINK_CONSOLE_IDLE_MINUTES: '5', PAYLINK_CONSOLE_LOCKOUT_ATTEMPTS: '6' }).console).toMatchObject({
      idleMinutes: 5,
      lockoutAttempts: 6,
    });
    expect(() => loadConfig({ PAYLINK_CONSOLE_IDLE_MINUTES: '16' })).toThrow('PAYLINK_CONSOLE_IDLE_MINUTES: must be at most 15');
    expect(() => loadConfig({ PAYLINK_CONSOLE_LOCKOUT_ATTEMPTS: '11' })).toThrow('PAYLINK_CONSOLE_LOCKOUT_ATTEMPTS: must be at most 10');
    expect(() => loadConfig({ PAYLINK_CONSOLE_LOCKOUT_MINUTES: '29' })).toThrow('PAYLINK_CONSOLE_LOCKOUT_MINUTES: must be at least 30');
  });

  it('has a velocity limit for each kind of abuse by default, each one adjustable or `off`', () => {
    expect(loadConfig({}).limits).toEqual({
      cardAttemptsPerIp: { points: 20, seconds: 3600 },
      cardAttemptsPerLink: { points: 300, seconds: 3600 },
      declinesPerCard: { points: 5, seconds: 86400 },
      declineReasons: { points: 3, seconds: 3600 },
      apiRequests: { points: 100, seconds: 1 },
      authFailures: { points: 20, seconds: 900 },
      signInFailures: { points: 30, seconds: 900 },
      qrRenders: { points: 30, seconds: 60 },
    });
    const set = loadConfig({ PAYLINK_LIMIT_API_REQUESTS: ' 25 / 1 ', PAYLINK_LIMIT_CARD_ATTEMPTS_PER_LINK: 'OFF' }).limits;
    expect(set.apiRequests).toEqual({ points: 25, seconds: 1 });
    expect(set.cardAttemptsPerLink).toBeUndefined();
    for (const bad of ['0/60', '10', '10/0', 'ten/60', '1.5/60', '-1/60'])
      expect(() => loadConfig({ PAYLINK_LIMIT_AUTH_FAILURES: bad }), bad).toThrow('PAYLINK_LIMIT_AUTH_FAILURES: must be `count/seconds`');
  });
});

describe('config › Apple Pay domain association', () => {
  it('reads the file it names once at start; none named: nothing to serve', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylink-apple-pay-'));
    try {
      const file = join(dir, 'apple-developer-merchantid-domain-association');
      writeFileSync(file, '7B2270737049...\n');
      expect(loadConfig({ PAYLINK_APPLE_PAY_DOMAIN_ASSOCIATION: file }).applePayDomainAssociation).toBe('7B2270737049...\n');
      expect(loadConfig({}).applePayDomainAssociation).toBeUndefined();
      expect(loadConfig({ PAYLINK_APPLE_PAY_DOMAIN_ASSOCIATION: '' }).applePayDomainAssociation).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops on a path it cannot read, an empty file or one far larger than Apple gives', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylink-apple-pay-'));
    try {
      writeFileSync(join(dir, 'empty'), '');
      writeFileSync(join(dir, 'huge'), 'x'.repeat(64 * 1024 + 1));
      expect(() => loadConfig({ PAYLINK_APPLE_PAY_DOMAIN_ASSOCIATION: join(dir, 'missing') })).toThrow(
        /PAYLINK_APPLE_PAY_DOMAIN_ASSOCIATION: cannot be read \(ENOENT\)/,
      );
      expect(() => loadConfig({ PAYLINK_APPLE_PAY_DOMAIN_ASSOCIATION: dir })).toThrow(/PAYLINK_APPLE_PAY_DOMAIN_ASSOCIATION: cannot be read \(EISDIR\)/);
      for (const name of ['empty', 'huge'])
        expect(() => loadConfig({ PAYLINK_APPLE_PAY_DOMAIN_ASSOCIATION: join(dir, name) }), name).toThrow(
          /PAYLINK_APPLE_PAY_DOMAIN_ASSOCIATION: must name a file of 1 to 65536 bytes/,
        );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('config › README', () => {
  it('documents every setting in the README', () => {
    const readme = readFileSync('README.md', 'utf8');
    // A row of the settings table, however its columns are padded.
    const missing = Object.keys(configSchema.shape).filter((name) => !new RegExp(`^\\|\\s*\`${name}\`\\s*\\|`, 'm').test(readme));
    expect(missing).toEqual([]);
  });
});
