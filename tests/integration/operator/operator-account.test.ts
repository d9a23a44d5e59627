import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { consoleMail, operatorAudit, operators } from '../../../src/db/schema.ts';
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
const row = async () => (await served.t.app.db.select().from(operators).where(eq(operators.email, operator.email)))[0]!;

describe('operator › account', () => {
  it('turns two-step sign-in on; sign-in then asks for the code; it turns off with password and code', async () => {
    const { c } = await signedIn();
    const started = await c.post('/operator/account', { action: 'totp-start' });
    expect(started.status).toBe(200);
    const secret = /data-testid="totp-key">([A-Z2-7]+)</.exec(started.html)![1]!;
    expect((await row()).totpSecretEnc).not.toContain(secret);
    const wrong = await c.post('/operator/account', { action: 'totp-confirm', code: '000000' });
    expect(wrong.status).toBe(422);
    expect(wrong.html).toContain(secret); // the enrolment stays on screen
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
