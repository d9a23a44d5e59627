import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { consoleMail, operatorAudit, operatorRecoveryCodes, operators } from '../../../src/db/schema.ts';
import { totpCode } from '../../../src/domain/accounts/totp.ts';
import { completeSetup, issueSetupLink } from '../../../src/domain/operators/accounts.ts';
import { useServedApp } from '../../support/app.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';

/** /operator/account: two-step sign-in (on, used at sign-in, off) and the password, with the console's rules. */
const clock = { now: new Date('2026-04-01T02:00:00Z') };
const served = useServedApp({ now: () => clock.now, env: { PAYLINK_CONSOLE_LOCKOUT_ATTEMPTS: '3' } });
const operator = { email: 'desk@paylink.example', password: 'lantern harbour orchid 8' };

beforeAll(async () => {
  const link = await issueSetupLink(served.t.app, { email: operator.email });
  await completeSetup(
    served.t.app,
    link!.url.split('/').at(-1)!,
    { email: '', password: operator.password, confirm: operator.password },
    { ip: null, userAgent: 't' },
  );
});

async function signedIn(password = operator.password) {
  const c = new ConsoleClient(served.server.url);
  const res = await c.post('/operator/sign-in', { email: operator.email, password }, { from: '/operator/sign-in' });
  return { c, res };
}
const step = () => {
  clock.now = new Date(clock.now.getTime() + 30_000);
};
/** The key as shown at enrolment: blocks of 4, each whole on a line. */
const keyOf = (html: string) => /data-testid="totp-key">([\s\S]*?)<\/code>/.exec(html)?.[1]?.replace(/<[^>]+>|\s/g, '');
const codesOf = (html: string) => [...html.matchAll(/<li[^>]*><code[^>]*>([0-9a-z]{5}-[0-9a-z]{5})<\/code><\/li>/g)].map((m) => m[1]!);
const row = async () => (await served.t.app.db.select().from(operators).where(eq(operators.email, operator.email)))[0]!;

describe('operator › account', () => {
  it('turns two-step sign-in on; sign-in then asks for the code; it turns off with password and code', async () => {
    const { c } = await signedIn();
    const started = await c.post('/operator/account', { action: 'totp-start' });
    expect(started.status).toBe(200);
    const secret = keyOf(started.html)!;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.html).toMatch(/<span class="group"[^>]*>[A-Z2-7]{4}<\/span>/);
    expect((await row()).totpSecretEnc).not.toContain(secret);
    const wrong = await c.post('/operator/account', { action: 'totp-confirm', code: '000000' });
    expect(wrong.status).toBe(422);
    expect(keyOf(wrong.html)).toBe(secret); // the enrolment stays on screen
    const on = await c.post('/operator/account', { action: 'totp-confirm', code: totpCode(secret, clock.now) });
    expect(textOf(on.html)).toContain('Two-step sign-in is on.');

    step();
    const next = await signedIn();
    expect(next.res.location).toBe('/operator/sign-in/code?next=%2Foperator');
    expect((await next.c.get('/operator')).status).toBe(303);
    const code = await next.c.post('/operator/sign-in/code?next=%2Foperator', { code: totpCode(secret, clock.now) }, { from: '/operator/sign-in/code' });
    expect(code.location).toBe('/operator');
    expect((await next.c.get('/operator')).status).toBe(200);

    step();
    const badOff = await next.c.post('/operator/account', { action: 'totp-disable', totp_password: operator.password, totp_code: '000000' });
    expect(badOff.status).toBe(422);
    expect(textOf(badOff.html)).toContain('is not the current code');
    const off = await next.c.post('/operator/account', { action: 'totp-disable', totp_password: operator.password, totp_code: totpCode(secret, clock.now) });
    expect(textOf(off.html)).toContain('Two-step sign-in is off.');
    expect(await row()).toMatchObject({ totpEnabledAt: null, totpSecretEnc: null });
  });

  it('shows 10 recovery codes once when two-step sign-in turns on; one signs in once, new ones need the password and end the old', async () => {
    step();
    const { c } = await signedIn();
    const secret = keyOf((await c.post('/operator/account', { action: 'totp-start' })).html)!;
    const on = await c.post('/operator/account', { action: 'totp-confirm', code: totpCode(secret, clock.now) });
    const codes = codesOf(on.html);
    expect(codes).toHaveLength(10);
    expect(textOf(on.html)).toContain('10 recovery codes left');

    const next = await signedIn();
    const used = await next.c.post('/operator/sign-in/code?next=%2Foperator', { code: codes[0]!.toUpperCase() }, { from: '/operator/sign-in/code?recovery=1' });
    expect(used.location).toBe('/operator');
    expect(textOf((await next.c.get('/operator/account')).html)).toContain('9 recovery codes left');
    const again = await signedIn();
    const reused = await again.c.post('/operator/sign-in/code?next=%2Foperator', { code: codes[0]! }, { from: '/operator/sign-in/code' });
    expect(reused.status).toBe(401);
    expect(textOf(reused.html)).toContain('nor an unused recovery code');
    expect((await row()).failedSignIns).toBe(1);

    const renewed = await next.c.post('/operator/account', { action: 'recovery-codes', codes_password: operator.password });
    const fresh = codesOf(renewed.html);
    expect(fresh).toHaveLength(10);
    const old = await again.c.post('/operator/sign-in/code?next=%2Foperator', { code: codes[1]! }, { from: '/operator/sign-in/code' });
    expect(old.status).toBe(401);
    const newOne = await again.c.post('/operator/sign-in/code?next=%2Foperator', { code: fresh[0]! }, { from: '/operator/sign-in/code' });
    expect(newOne.location).toBe('/operator');
    const actions = (await served.t.app.db.select().from(operatorAudit)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['sign_in.recovery_code_used', 'recovery_codes.regenerated']));

    step();
    const off = await next.c.post('/operator/account', { action: 'totp-disable', totp_password: operator.password, totp_code: totpCode(secret, clock.now) });
    expect(textOf(off.html)).toContain('Two-step sign-in is off.');
    expect(await served.t.app.db.select().from(operatorRecoveryCodes)).toEqual([]);
  });

  it('changes the password with the current one; other sessions end', async () => {
    const first = await signedIn();
    const second = await signedIn();
    const refused = await first.c.post('/operator/account', {
      action: 'password',
      current: 'not it at all',
      password: 'a brand new harbour phrase',
      confirm: 'a brand new harbour phrase',
    });
    expect(refused.status).toBe(422);
    expect(textOf(refused.html), textOf(refused.html)).toContain('is not your current password');
    const changed = await first.c.post('/operator/account', {
      action: 'password',
      current: operator.password,
      password: 'a brand new harbour phrase',
      confirm: 'a brand new harbour phrase',
    });
    expect(textOf(changed.html)).toContain('Your password is changed.');
    expect((await second.c.get('/operator')).status).toBe(303);
    expect((await first.c.get('/operator')).status).toBe(200);
    expect((await signedIn('a brand new harbour phrase')).res.status).toBe(303);
    operator.password = 'a brand new harbour phrase';
  });

  it('wrong current passwords count towards the lockout; the locking one ends every session', async () => {
    const { c } = await signedIn();
    for (let i = 0; i < 2; i++)
      await c.post('/operator/account', {
        action: 'password',
        current: 'wrong guess here',
        password: 'x new harbour phrase 1',
        confirm: 'x new harbour phrase 1',
      });
    // The third wrong one in a row locks (PAYLINK_CONSOLE_LOCKOUT_ATTEMPTS=3).
    const locked = await c.post('/operator/account', {
      action: 'password',
      current: 'wrong guess here',
      password: 'x new harbour phrase 1',
      confirm: 'x new harbour phrase 1',
    });
    expect(textOf(locked.html)).toContain('your account is locked until');
    expect((await c.get('/operator')).status).toBe(303);
    const log = await served.t.app.db.select().from(operatorAudit);
    expect(log.map((a) => a.action)).toEqual(
      expect.arrayContaining(['totp.enabled', 'totp.disabled', 'password.changed', 'account.check_failed', 'account.locked']),
    );
    // The lock is e-mailed to the operator, as a console user's is.
    const mails = await served.t.app.db.select().from(consoleMail).where(eq(consoleMail.emailTo, operator.email));
    expect(mails.map((m) => m.kind)).toEqual(['operator_locked']);
  });
});
