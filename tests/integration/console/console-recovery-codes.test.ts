import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, consoleMail, consoleRecoveryCodes, consoleSessions, consoleUsers } from '../../../src/db/schema.ts';
import { renderConsoleMail } from '../../../src/domain/accounts/mail.ts';
import { resetSecondFactorByOperator } from '../../../src/domain/accounts/second-factor.ts';
import { completeSecondFactor, signIn } from '../../../src/domain/accounts/sessions.ts';
import { newTotpSecret, totpCode } from '../../../src/domain/accounts/totp.ts';
import { CONSOLE_USERS, useServedApp } from '../../support/app.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';
import { recordStatusCode } from '../../support/status-codes-seen.ts';

/** A clock the tests move, so each TOTP code belongs to a step of its own. */
const clock = { now: new Date('2026-03-02T09:00:00Z') };
const advance = (minutes: number) => {
  clock.now = new Date(clock.now.getTime() + minutes * 60_000);
};
const served = useServedApp({ now: () => clock.now });
const { acmeOwner, acmeStaff } = CONSOLE_USERS;
const client = () => new ConsoleClient(served.server.url);
const from = { ip: '203.0.113.7', userAgent: 'recovery-test' };

async function signedIn(user: { email: string; password: string }, code?: string) {
  const c = client();
  const res = await c.signIn(user.email, user.password);
  if (code !== undefined) {
    expect(res.location).toMatch(/^\/console\/sign-in\/code/);
    const second = await c.post('/console/sign-in/code', { code });
    expect(second.status, textOf(second.html)).toBe(303);
  } else expect(res.status, textOf(res.html)).toBe(303);
  return c;
}
const userRow = async (email: string) => (await served.t.app.db.select().from(consoleUsers).where(eq(consoleUsers.email, email)))[0]!;
const codesOf = (html: string) => [...html.matchAll(/<li[^>]*><code[^>]*>([0-9a-z]{5}-[0-9a-z]{5})<\/code><\/li>/g)].map((m) => m[1]!);
const auditOf = async (action: string) => served.t.app.db.select().from(auditLog).where(eq(auditLog.action, action));
/** The half-way token of a password sign-in, for the second step called directly. */
async function halfWay(user: { email: string; password: string }): Promise<string> {
  const outcome = await signIn(served.t.app, user, from);
  if (outcome.kind !== 'second-factor') throw new Error(`expected the second step, got ${outcome.kind}`);
  return outcome.token;
}

let secret = '';
let codes: string[] = [];
let owner: ConsoleClient;

describe('console › recovery codes', () => {
  it('turning two-step sign-in on shows 10 recovery codes once, with a copy button and a .txt download; only keyed hashes are stored', async () => {
    owner = await signedIn(acmeOwner);
    const start = await owner.post('/console/account', { action: 'totp-start' });
    secret = /data-testid="totp-key">([\s\S]*?)<\/code>/.exec(start.html)![1]!.replace(/<[^>]+>|\s/g, '');
    const on = await owner.post('/console/account', { action: 'totp-confirm', code: totpCode(secret, clock.now) });
    expect(on.status).toBe(200);
    codes = codesOf(on.html);
    expect(codes).toHaveLength(10);
    expect(textOf(on.html)).toContain('Save your recovery codes');
    expect(on.html).toContain('download="paylink-recovery-codes.txt"');
    const download = decodeURIComponent(/href="data:text\/plain;charset=utf-8,([^"]+)"/.exec(on.html)![1]!);
    for (const code of codes) expect(download).toContain(`\n${code}\n`);
    expect(textOf(on.html)).toContain('10 recovery codes left');

    const user = await userRow(acmeOwner.email);
    const stored = await served.t.app.db.select().from(consoleRecoveryCodes).where(eq(consoleRecoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    const dump = JSON.stringify(stored);
    for (const code of codes) {
      expect(dump).not.toContain(code);
      expect(dump).not.toContain(code.replace('-', ''));
    }
    // Shown once: the page afterwards only counts them.
    const later = await owner.get('/console/account');
    expect(codesOf(later.html)).toEqual([]);
    expect(textOf(later.html)).toContain('10 recovery codes left');
  });

  it('signs in with a recovery code instead of a TOTP code, however it is typed; the account page then says 9 left and the log says so', async () => {
    advance(1);
    const c = client();
    await c.signIn(acmeOwner.email, acmeOwner.password);
    const page = await c.get('/console/sign-in/code?next=%2Fconsole&recovery=1');
    expect(textOf(page.html)).toContain('Enter a recovery code');
    const done = await c.post('/console/sign-in/code?next=%2Fconsole&recovery=1', { code: ` ${codes[0]!.toUpperCase().replace('-', ' ')} ` });
    expect(done.status).toBe(303);
    expect((await c.get('/console')).status).toBe(200);
    expect(textOf((await c.get('/console/account')).html)).toContain('9 recovery codes left');
    const [used] = await auditOf('sign_in.recovery_code_used');
    expect(used).toMatchObject({ actorEmail: acmeOwner.email, target: `${acmeOwner.email}: 9 left`, ip: '127.0.0.1' });
    const activity = await owner.get('/console/activity');
    expect(textOf(activity.html)).toContain('Signed in with a recovery code (9 left)');
  });

  it('refuses a used recovery code, counting it towards the lockout like a wrong TOTP code', async () => {
    const c = client();
    await c.signIn(acmeOwner.email, acmeOwner.password);
    const reused = await c.post('/console/sign-in/code', { code: codes[0]! });
    expect(reused.status).toBe(401);
    expect(textOf(reused.html)).toContain('is neither the current code from your authenticator app nor an unused recovery code');
    expect((await userRow(acmeOwner.email)).failedSignIns).toBe(1);
    const unknown = await c.post('/console/sign-in/code', { code: 'zzzzz-zzzzz' });
    expect(unknown.status).toBe(401);
    expect((await userRow(acmeOwner.email)).failedSignIns).toBe(2);
    expect((await c.post('/console/sign-in/code', { code: codes[1]! })).status).toBe(303);
    expect((await userRow(acmeOwner.email)).failedSignIns).toBe(0);
  });

  it('of two sign-ins using the same recovery code at the same moment, exactly one gets in', async () => {
    const [a, b] = [await halfWay(acmeOwner), await halfWay(acmeOwner)];
    const outcomes = await Promise.all([completeSecondFactor(served.t.app, a, codes[2]!, from), completeSecondFactor(served.t.app, b, codes[2]!, from)]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(['second-factor', 'signed-in']);
    const user = await userRow(acmeOwner.email);
    const left = await served.t.app.db
      .select()
      .from(consoleRecoveryCodes)
      .where(and(eq(consoleRecoveryCodes.userId, user.id), isNull(consoleRecoveryCodes.usedAt)));
    expect(left).toHaveLength(7);
    await served.t.app.db.update(consoleUsers).set({ failedSignIns: 0 }).where(eq(consoleUsers.id, user.id));
  });

  it('makes new codes only with the password (a wrong one counts); the old ones stop working and the count is 10 again', async () => {
    const wrong = await owner.post('/console/account', { action: 'recovery-codes', codes_password: 'not my password at all' });
    expect(wrong.status).toBe(422);
    expect(textOf(wrong.html)).toContain('is not your current password');
    expect(codesOf(wrong.html)).toEqual([]);
    expect((await userRow(acmeOwner.email)).failedSignIns).toBe(1);

    const fresh = await owner.post('/console/account', { action: 'recovery-codes', codes_password: acmeOwner.password });
    expect(fresh.status).toBe(200);
    const renewed = codesOf(fresh.html);
    expect(renewed).toHaveLength(10);
    expect(renewed.some((c) => codes.includes(c))).toBe(false);
    expect(textOf(fresh.html)).toContain('10 recovery codes left');
    expect(await auditOf('recovery_codes.regenerated')).toHaveLength(1);

    const old = await completeSecondFactor(served.t.app, await halfWay(acmeOwner), codes[3]!, from);
    expect(old.kind).toBe('second-factor');
    expect((await completeSecondFactor(served.t.app, await halfWay(acmeOwner), renewed[0]!, from)).kind).toBe('signed-in');
    codes = renewed;
  });

  it('a TOTP code still works beside the codes, and turning two-step sign-in off removes them', async () => {
    advance(1);
    const c = await signedIn(acmeOwner, totpCode(secret, clock.now));
    advance(1);
    const off = await c.post('/console/account', { action: 'totp-disable', totp_password: acmeOwner.password, totp_code: totpCode(secret, clock.now) });
    expect(off.status).toBe(200);
    const user = await userRow(acmeOwner.email);
    expect(await served.t.app.db.select().from(consoleRecoveryCodes).where(eq(consoleRecoveryCodes.userId, user.id))).toEqual([]);
  });
});

describe('console › an owner resets another user’s two-step sign-in', () => {
  /** Staff cannot turn TOTP on in the console; a seed or an earlier owner role can leave it on. */
  async function giveStaffTotp() {
    const staffSecret = newTotpSecret();
    await served.t.app.db
      .update(consoleUsers)
      .set({ totpSecretEnc: served.t.app.secrets.seal(staffSecret), totpEnabledAt: clock.now, totpLastStep: null })
      .where(eq(consoleUsers.email, acmeStaff.email));
    const staff = await userRow(acmeStaff.email);
    await served.t.app.db.insert(consoleRecoveryCodes).values({ userId: staff.id, codeHash: 'placeholder-hash', createdAt: clock.now });
    return staffSecret;
  }

  it('asks first, saying what happens; then removes their TOTP and codes, ends their sessions, logs it and e-mails them who did it', async () => {
    const staffSecret = await giveStaffTotp();
    advance(1);
    const staffSession = await signedIn(acmeStaff, totpCode(staffSecret, clock.now));
    const staff = await userRow(acmeStaff.email);
    const page = await owner.get(`/console/users/${staff.id}`);
    expect(textOf(page.html)).toContain('Two-step sign-in On since');

    const asked = await owner.post(`/console/users/${staff.id}`, { action: 'reset-second-factor' });
    expect(asked.status).toBe(200);
    const step = textOf(asked.html);
    expect(step).toContain(`Reset two-step sign-in of ${acmeStaff.email}?`);
    expect(step).toContain('all their recovery codes stop working');
    expect(step).toContain('Their signed-in session ends at once.');
    expect(step).toContain(`They are e-mailed that ${acmeOwner.email} reset it`);
    expect((await userRow(acmeStaff.email)).totpEnabledAt).not.toBeNull();

    const done = await owner.postConfirmed(`/console/users/${staff.id}`, { action: 'reset-second-factor' });
    expect(done.status).toBe(200);
    expect(textOf(done.html)).toContain('Their two-step sign-in is reset');
    expect(await userRow(acmeStaff.email)).toMatchObject({ totpEnabledAt: null, totpSecretEnc: null, totpLastStep: null });
    expect(await served.t.app.db.select().from(consoleRecoveryCodes).where(eq(consoleRecoveryCodes.userId, staff.id))).toEqual([]);
    expect(await served.t.app.db.select().from(consoleSessions).where(eq(consoleSessions.userId, staff.id))).toEqual([]);
    expect((await staffSession.get('/console')).status).toBe(303);
    expect(await auditOf('user.second_factor_reset')).toMatchObject([{ actorEmail: acmeOwner.email, target: acmeStaff.email }]);

    const [mail] = await served.t.app.db
      .select()
      .from(consoleMail)
      .where(and(eq(consoleMail.emailTo, acmeStaff.email), eq(consoleMail.kind, 'second_factor_reset')));
    const words = renderConsoleMail(served.t.app, mail!);
    expect(words.subject).toBe('Your two-step sign-in on paylink was reset');
    expect(words.text).toContain(`${acmeOwner.email}, an owner of the paylink console of Acme Books, reset your two-step sign-in`);
    // Their password alone signs them in now.
    await signedIn(acmeStaff);
  });

  it('refuses to reset the owner’s own (recovery codes are for that), or a user without two-step sign-in, and changes nothing', async () => {
    const self = await userRow(acmeOwner.email);
    const own = await owner.post(`/console/users/${self.id}`, { action: 'reset-second-factor' });
    expect(own.status).toBe(422);
    expect(textOf(own.html)).toContain('you cannot reset your own two-step sign-in');
    const ownPage = await owner.get(`/console/users/${self.id}`);
    expect(ownPage.html).not.toContain('Reset two-step sign-in…');

    const staff = await userRow(acmeStaff.email);
    const asked = await owner.post(`/console/users/${staff.id}`, { action: 'reset-second-factor' });
    expect(asked.status).toBe(409);
    expect(asked.html).not.toContain('data-testid="confirm-step"');
    const refused = await owner.post(`/console/users/${staff.id}`, { action: 'reset-second-factor', confirmed: 'yes' });
    expect(refused.status).toBe(409);
    expect(textOf(refused.html)).toContain('has two-step sign-in off: there is nothing to reset');
  });

  it('answers 404 to staff asking to reset anyone’s, and to an owner for another merchant’s user', async () => {
    const staffSecret = newTotpSecret();
    await served.t.app.db
      .update(consoleUsers)
      .set({ totpSecretEnc: served.t.app.secrets.seal(staffSecret), totpEnabledAt: clock.now })
      .where(eq(consoleUsers.email, acmeOwner.email));
    const staff = await signedIn(acmeStaff);
    const ownerRow = await userRow(acmeOwner.email);
    const tried = await staff.post(`/console/users/${ownerRow.id}`, { action: 'reset-second-factor', confirmed: 'yes' }, { from: '/console' });
    expect(tried.status).toBe(404);
    expect((await userRow(acmeOwner.email)).totpEnabledAt).not.toBeNull();

    const other = await userRow(CONSOLE_USERS.otherOwner.email);
    const foreign = await owner.post(`/console/users/${other.id}`, { action: 'reset-second-factor', confirmed: 'yes' }, { from: '/console' });
    expect(foreign.status).toBe(404);
    expect(await auditOf('user.second_factor_reset')).toHaveLength(1);
  });

  it('leaves a sole owner’s reset to the operator (npm run admin -- reset-second-factor EMAIL): audited in the account’s log, e-mailed in the operator’s words', async () => {
    const by = { integratorId: null, userId: null, email: 'admin command (test)', ip: null, userAgent: 'npm run admin' };
    await expect(resetSecondFactorByOperator(served.t.app, 'nobody@acme.example', by)).rejects.toMatchObject({ httpStatus: 404 });
    const owner = await userRow(acmeOwner.email);
    expect(owner.totpEnabledAt).not.toBeNull(); // left on by the test before
    expect(await resetSecondFactorByOperator(served.t.app, ' OWNER@acme.example ', by)).toEqual({ email: acmeOwner.email, integratorId: owner.integratorId });
    expect(await userRow(acmeOwner.email)).toMatchObject({ totpEnabledAt: null, totpSecretEnc: null });
    const entries = await auditOf('user.second_factor_reset');
    expect(entries.at(-1)).toMatchObject({ integratorId: owner.integratorId, actorEmail: 'admin command (test)', target: acmeOwner.email });
    const [mail] = await served.t.app.db
      .select()
      .from(consoleMail)
      .where(and(eq(consoleMail.emailTo, acmeOwner.email), eq(consoleMail.kind, 'second_factor_reset')));
    const words = renderConsoleMail(served.t.app, mail!);
    expect(words.text).toContain('paylink’s operator reset your two-step sign-in on the paylink console of Acme Books');
    await expect(resetSecondFactorByOperator(served.t.app, acmeOwner.email, by)).rejects.toMatchObject({ code: 'ER.01.51' });
    recordStatusCode({ data: { status_code: 'ER.01.51' } });
  });
});

describe('recovery codes › with two-step sign-in off', () => {
  it('refuses to make codes (409) and makes none', async () => {
    const other = await signedIn(CONSOLE_USERS.otherOwner);
    const res = await other.post('/console/account', { action: 'recovery-codes', codes_password: CONSOLE_USERS.otherOwner.password });
    expect(res.status).toBe(409);
    // Said where the owner looks: the codes' password field is not drawn while two-step sign-in is off.
    expect(textOf(res.html)).toContain('Two-step sign-in is off, so there are no recovery codes to replace.');
    const user = await userRow(CONSOLE_USERS.otherOwner.email);
    expect(await served.t.app.db.select().from(consoleRecoveryCodes).where(eq(consoleRecoveryCodes.userId, user.id))).toEqual([]);
    recordStatusCode({ data: { status_code: 'ER.01.50' } });
  });
});
