import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleMail, operatorAudit, operatorSessions, operatorSetupTokens, operators } from '../../../src/db/schema.ts';
import { renderConsoleMail } from '../../../src/domain/accounts/mail.ts';
import { newTotpSecret, totpCode } from '../../../src/domain/accounts/totp.ts';
import { DomainError } from '../../../src/domain/errors.ts';
import {
  completeSetup,
  findSetupLink,
  issueSetupLink,
  operatorSecondFactor,
  operatorSignIn,
  resolveOperatorSession,
  SETUP_LINK_HOURS,
} from '../../../src/domain/operators/accounts.ts';
import { createMailer, mailDir } from '../../../src/workers/mailer.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { recordStatusCode } from '../../support/status-codes-seen.ts';

/** Operator accounts: one-time setup links, then sign-in with the console's rules (lockout, TOTP), every step audited. */
const clock = { now: new Date('2026-03-02T09:00:00Z') };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => clock.now, env: { PAYLINK_CONSOLE_LOCKOUT_ATTEMPTS: '3', PAYLINK_CONSOLE_LOCKOUT_MINUTES: '30' } });
});
afterAll(() => t?.close());

const from = { ip: '203.0.113.9', userAgent: 'operator-test' };
const tokenOf = (url: string) => url.split('/').at(-1)!;
const password = 'operator passphrase 42';
const later = (hours: number) => new Date(clock.now.getTime() + hours * 3_600_000);
const actions = async () => (await t.app.db.select().from(operatorAudit).orderBy(operatorAudit.id)).map((a) => a.action);
const lockMails = (email: string) => t.app.db.select().from(consoleMail).where(eq(consoleMail.emailTo, email));

describe('operator › setup links', () => {
  it('the start banner’s link works once, makes the first operator, and no other banner link is issued after', async () => {
    const first = await issueSetupLink(t.app);
    const second = await issueSetupLink(t.app);
    expect(first?.url).toMatch(/\/operator\/setup\/[A-Za-z0-9_-]{43}$/);
    expect(await findSetupLink(t.app, tokenOf(first!.url))).toEqual({ email: null });
    // Only the hash is kept.
    const rows = await t.app.db.select().from(operatorSetupTokens);
    expect(JSON.stringify(rows)).not.toContain(tokenOf(first!.url));

    await expect(completeSetup(t.app, tokenOf(first!.url), { email: 'Ops@Example.com', password, confirm: password }, from)).resolves.toEqual({
      email: 'ops@example.com',
    });
    // Used: refused with the catalogue's code, nothing made twice.
    const again = completeSetup(t.app, tokenOf(first!.url), { email: 'other@example.com', password, confirm: password }, from);
    await expect(again).rejects.toBeInstanceOf(DomainError);
    await expect(again).rejects.toMatchObject({ code: 'ER.05.00' });
    recordStatusCode({ data: { status_code: 'ER.05.00' } });
    // The other banner link died with the first operator; no new banner link is issued.
    expect(await findSetupLink(t.app, tokenOf(second!.url))).toBeUndefined();
    expect(await issueSetupLink(t.app)).toBeUndefined();
    expect(await t.app.db.$count(operators)).toBe(1);
    const [row] = await t.app.db.select().from(operators);
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('a shell link names its address and expires after 24 hours', async () => {
    const link = await issueSetupLink(t.app, { email: 'night@example.com' });
    expect(await findSetupLink(t.app, tokenOf(link!.url))).toEqual({ email: 'night@example.com' });
    expect(link!.expiresAt).toEqual(later(SETUP_LINK_HOURS));
    const saved = clock.now;
    clock.now = later(SETUP_LINK_HOURS);
    try {
      expect(await findSetupLink(t.app, tokenOf(link!.url))).toBeUndefined();
      await expect(completeSetup(t.app, tokenOf(link!.url), { email: '', password, confirm: password }, from)).rejects.toMatchObject({ code: 'ER.05.00' });
    } finally {
      clock.now = saved;
    }
    expect(await t.app.db.$count(operators, eq(operators.email, 'night@example.com'))).toBe(0);
  });

  it('a shell link for an address with an account is refused, and a weak or mismatched password makes nothing', async () => {
    await expect(issueSetupLink(t.app, { email: 'ops@example.com' })).rejects.toMatchObject({ messages: { email: ['already has an operator account'] } });
    await expect(issueSetupLink(t.app, { email: 'not an address' })).rejects.toMatchObject({ code: 'ER.02.30' });
    const link = await issueSetupLink(t.app, { email: 'second@example.com' });
    await expect(completeSetup(t.app, tokenOf(link!.url), { email: '', password: 'short', confirm: 'short' }, from)).rejects.toMatchObject({
      code: 'ER.02.30',
    });
    await expect(completeSetup(t.app, tokenOf(link!.url), { email: '', password, confirm: `${password}!` }, from)).rejects.toMatchObject({
      messages: { confirm: ['does not match the password'] },
    });
    // Refusals do not spend the link.
    expect(await findSetupLink(t.app, tokenOf(link!.url))).toEqual({ email: 'second@example.com' });
    // The link names the address: what the form says is ignored.
    await completeSetup(t.app, tokenOf(link!.url), { email: 'someone.else@example.com', password, confirm: password }, from);
    expect(await t.app.db.$count(operators, eq(operators.email, 'second@example.com'))).toBe(1);
  });
});

describe('operator › sign-in', () => {
  it('signs in with the right password and starts a session', async () => {
    const outcome = await operatorSignIn(t.app, { email: 'OPS@example.com', password }, from);
    expect(outcome.kind).toBe('signed-in');
    const identity = await resolveOperatorSession(t.app, (outcome as { token: string }).token);
    expect(identity?.operator.email).toBe('ops@example.com');
  });

  it('locks the account after the configured failures: then even the right password is refused, and the log says so', async () => {
    for (let i = 0; i < 3; i++)
      expect((await operatorSignIn(t.app, { email: 'second@example.com', password: 'wrong password here' }, from)).kind).toBe('refused');
    expect((await operatorSignIn(t.app, { email: 'second@example.com', password }, from)).kind).toBe('refused');
    const [row] = await t.app.db.select().from(operators).where(eq(operators.email, 'second@example.com'));
    expect(row!.lockedUntil).toEqual(later(0.5));
    const log = await actions();
    expect(log).toContain('account.locked');
    expect(log).toContain('sign_in.refused_locked');
    // The operator is told, once (the refusal while locked queues nothing more), through the console mail queue.
    const mails = await lockMails('second@example.com');
    expect(mails.map((m) => ({ kind: m.kind, integratorId: m.integratorId, userId: m.userId, operatorId: m.operatorId }))).toEqual([
      { kind: 'operator_locked', integratorId: null, userId: null, operatorId: row!.id },
    ]);
    const mail = renderConsoleMail(t.app, mails[0]!);
    expect(mail.subject).toBe('Your paylink operator account is locked for now');
    expect(mail.text).toContain(`until ${later(0.5).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    expect(mail.text).toContain(`The last failed attempt came from ${from.ip}.`);
    expect(mail.text).not.toContain('wrong password here');
    // The lock runs out.
    const saved = clock.now;
    clock.now = later(0.5);
    try {
      expect((await operatorSignIn(t.app, { email: 'second@example.com', password }, from)).kind).toBe('signed-in');
    } finally {
      clock.now = saved;
    }
  });

  it('an unknown address is refused like a wrong password and audited without an operator', async () => {
    expect((await operatorSignIn(t.app, { email: 'nobody@example.com', password }, from)).kind).toBe('refused');
    const [last] = await t.app.db
      .select()
      .from(operatorAudit)
      .orderBy(operatorAudit.id)
      .limit(1)
      .offset((await t.app.db.$count(operatorAudit)) - 1);
    expect(last).toMatchObject({ action: 'sign_in.failed', operatorId: null, operatorEmail: 'nobody@example.com', target: 'unknown e-mail', ip: from.ip });
  });

  it('with TOTP on, the password alone gives no session; the current code does, once', async () => {
    const secret = newTotpSecret();
    await t.app.db
      .update(operators)
      .set({ totpSecretEnc: t.app.secrets.seal(secret), totpEnabledAt: clock.now })
      .where(eq(operators.email, 'ops@example.com'));
    const first = await operatorSignIn(t.app, { email: 'ops@example.com', password }, from);
    expect(first.kind).toBe('second-factor');
    const pending = (first as { token: string }).token;
    expect(await resolveOperatorSession(t.app, pending)).toBeUndefined();
    expect((await operatorSecondFactor(t.app, pending, '000000', from)).kind).toBe('second-factor');
    const done = await operatorSecondFactor(t.app, pending, totpCode(secret, clock.now), from);
    expect(done.kind).toBe('signed-in');
    expect(await resolveOperatorSession(t.app, (done as { token: string }).token)).toBeDefined();
    // The half-way session is spent.
    expect((await operatorSecondFactor(t.app, pending, totpCode(secret, clock.now), from)).kind).toBe('refused');
    expect(await actions()).toContain('sign_in.second_factor_failed');
  });

  it('wrong codes that lock the account e-mail the operator too, and the mailer delivers it', async () => {
    const [before] = await t.app.db.select().from(operators).where(eq(operators.email, 'ops@example.com'));
    const first = await operatorSignIn(t.app, { email: 'ops@example.com', password }, from);
    const pending = (first as { token: string }).token;
    expect((await operatorSecondFactor(t.app, pending, '000000', from)).kind).toBe('second-factor');
    expect((await operatorSecondFactor(t.app, pending, '000001', from)).kind).toBe('second-factor');
    expect(await lockMails('ops@example.com')).toEqual([]);
    expect((await operatorSecondFactor(t.app, pending, '000002', from)).kind).toBe('locked');
    expect((await lockMails('ops@example.com')).map((m) => m.kind)).toEqual(['operator_locked']);
    const mailer = createMailer(t.app);
    try {
      expect(await mailer.sendDue()).toBeGreaterThanOrEqual(1);
    } finally {
      await mailer.close();
    }
    expect((await lockMails('ops@example.com')).map((m) => m.state)).toEqual(['sent']);
    const files = readdirSync(mailDir(t.app)).filter((f) => f.includes('console-operator_locked'));
    const written = files.map((f) => readFileSync(join(mailDir(t.app), f), 'utf8')).find((m) => m.includes('To: ops@example.com'));
    expect(written).toContain('Subject: Your paylink operator account is locked for now');
    await t.app.db.update(operators).set({ failedSignIns: 0, lockedUntil: null }).where(eq(operators.id, before!.id));
  });

  it('a session idle past the timeout ends', async () => {
    const outcome = await operatorSignIn(t.app, { email: 'second@example.com', password }, from);
    const token = (outcome as { token: string }).token;
    const sessions = await t.app.db.$count(operatorSessions);
    const saved = clock.now;
    clock.now = later(t.app.config.console.idleMinutes / 60 + 0.01);
    try {
      expect(await resolveOperatorSession(t.app, token)).toBeUndefined();
    } finally {
      clock.now = saved;
    }
    // Deleted, not only refused.
    expect(await t.app.db.$count(operatorSessions)).toBe(sessions - 1);
  });
});
