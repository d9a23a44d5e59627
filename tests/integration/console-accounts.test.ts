import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, consoleSessions, consoleUsers } from '../../src/db/schema.ts';
import { totpCode } from '../../src/domain/accounts/totp.ts';
import { CONSOLE_USERS, defaultSeed, provision, useServedApp } from '../support/app.ts';
import { ConsoleClient, textOf } from '../support/console.ts';

/** A clock the tests move: idle timeouts, lifetimes and lockouts without waiting. */
const clock = { now: new Date('2026-03-02T09:00:00Z') };
const advance = (minutes: number) => {
  clock.now = new Date(clock.now.getTime() + minutes * 60_000);
};
const served = useServedApp({ now: () => clock.now });

const { acmeOwner, acmeStaff, otherOwner } = CONSOLE_USERS;
const client = () => new ConsoleClient(served.server.url);
async function signedIn(user: { email: string; password: string }) {
  const c = client();
  const res = await c.signIn(user.email, user.password);
  expect(res.status, textOf(res.html)).toBe(303);
  return c;
}
const userRow = async (email: string) => (await served.t.app.db.select().from(consoleUsers).where(eq(consoleUsers.email, email)))[0]!;
const actions = async (email: string) => (await served.t.app.db.select().from(auditLog).where(eq(auditLog.actorEmail, email))).map((e) => e.action);
/** Clears a lockout a test caused, so later tests start from a usable account. */
const unlock = (email: string) => served.t.app.db.update(consoleUsers).set({ failedSignIns: 0, lockedUntil: null }).where(eq(consoleUsers.email, email));

describe('console › sign-in', () => {
  it('sends a visitor without a session to the sign-in page, with Email, Password and a Sign in button', async () => {
    const c = client();
    const home = await c.get('/console');
    expect(home.status).toBe(303);
    expect(home.location).toBe('/console/sign-in');
    const page = await c.get('/console/sign-in');
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/<label for="field-email">Email<\/label>/);
    expect(page.html).toMatch(/<label for="field-password">Password<\/label>/);
    expect(page.html).toMatch(/<button type="submit" class="wide">Sign in<\/button>/);
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it('signs in with the right password: an HttpOnly, SameSite=Lax cookie whose token is stored only as its sha256', async () => {
    const c = client();
    const res = await c.signIn(acmeOwner.email, acmeOwner.password);
    expect(res.status).toBe(303);
    expect(res.location).toBe('/console');
    const cookie = res.headers.getSetCookie().find((l) => l.startsWith('paylink_console='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const token = c.cookies.get('paylink_console')!;
    const sessions = await served.t.app.db.select().from(consoleSessions);
    expect(sessions.some((s) => s.tokenHash === token || s.id === token)).toBe(false);
    const home = await c.get('/console');
    expect(home.status).toBe(200);
    expect(textOf(home.html)).toContain(`Signed in as ${acmeOwner.email} (owner)`);
    expect(await actions(acmeOwner.email)).toContain('sign_in.succeeded');
  });

  it('refuses a wrong password or an unknown e-mail with the same message, and logs both with the client address', async () => {
    const wrong = await client().signIn(acmeStaff.email, 'not the password at all');
    const unknown = await client().signIn('nobody@acme.example', 'not the password at all');
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(textOf(res.html)).toContain('The email or password is not right.');
    }
    const entries = await served.t.app.db.select().from(auditLog).where(eq(auditLog.action, 'sign_in.failed'));
    expect(entries.map((e) => e.actorEmail)).toEqual(expect.arrayContaining([acmeStaff.email, 'nobody@acme.example']));
    expect(entries.every((e) => e.ip === '127.0.0.1')).toBe(true);
    expect(JSON.stringify(entries)).not.toContain('not the password at all');
    await unlock(acmeStaff.email);
  });

  it('locks an account after 10 failed sign-ins for 30 minutes, refusing even the right password meanwhile', async () => {
    for (let i = 1; i <= 9; i++) expect((await client().signIn(acmeStaff.email, `wrong password ${i}!`)).status).toBe(401);
    const tenth = await client().signIn(acmeStaff.email, 'wrong password 10!');
    expect(tenth.status).toBe(423);
    expect(textOf(tenth.html)).toContain('This account is locked after too many failed sign-ins.');
    const right = await client().signIn(acmeStaff.email, acmeStaff.password);
    expect(right.status).toBe(423);
    expect(right.headers.getSetCookie().some((l) => l.startsWith('paylink_console='))).toBe(false);
    advance(29);
    expect((await client().signIn(acmeStaff.email, acmeStaff.password)).status).toBe(423);
    advance(2);
    expect((await client().signIn(acmeStaff.email, acmeStaff.password)).status).toBe(303);
    expect(await actions(acmeStaff.email)).toEqual(expect.arrayContaining(['account.locked', 'sign_in.refused_locked', 'sign_in.succeeded']));
    expect((await userRow(acmeStaff.email)).failedSignIns).toBe(0);
  });
});

describe('console › sessions', () => {
  it('ends a session left idle for 15 minutes', async () => {
    const c = await signedIn(acmeOwner);
    advance(14);
    expect((await c.get('/console')).status).toBe(200);
    advance(14); // 14 minutes after the last use: still alive
    expect((await c.get('/console')).status).toBe(200);
    advance(15);
    const gone = await c.get('/console');
    expect(gone.status).toBe(303);
    expect(gone.location).toBe('/console/sign-in');
  });

  it('ends a session at its absolute lifetime (12 hours) however active it is', async () => {
    const c = await signedIn(acmeOwner);
    for (let hour = 0; hour < 12 * 6 - 1; hour++) {
      advance(10);
      expect((await c.get('/console')).status).toBe(200);
    }
    advance(10);
    expect((await c.get('/console')).status).toBe(303);
  });

  it('signs out server-side: the old cookie no longer opens the console', async () => {
    const c = await signedIn(acmeOwner);
    const token = c.cookies.get('paylink_console')!;
    const out = await c.post('/console/sign-out', {}, { from: '/console' });
    expect(out.status).toBe(303);
    const replay = new ConsoleClient(served.server.url);
    replay.cookies.set('paylink_console', token);
    expect((await replay.get('/console')).status).toBe(303);
    expect(await actions(acmeOwner.email)).toContain('sign_out');
  });

  it('refuses GET on sign-out (a link or image cannot sign anyone out)', async () => {
    const c = await signedIn(acmeOwner);
    expect((await c.get('/console/sign-out')).status).toBe(405);
    expect((await c.get('/console')).status).toBe(200);
  });
});

describe('console › CSRF', () => {
  it('refuses a POST without the CSRF token, with a foreign Origin, or with another session’s token, and changes nothing', async () => {
    const owner = await signedIn(acmeOwner);
    const other = await signedIn(acmeOwner);
    const staff = await userRow(acmeStaff.email);
    const path = `/console/users/${staff.id}`;
    const attempts = [
      await owner.post(path, { _csrf: '', action: 'remove' }),
      await owner.post(path, { _csrf: await other.csrf('/console'), action: 'remove' }),
      await owner.post(path, { action: 'remove' }, { headers: { origin: 'https://evil.example' } }),
      await owner.post(path, { action: 'remove' }, { headers: { origin: 'null' } }),
      await owner.post(path, { action: 'remove' }, { headers: { 'sec-fetch-site': 'cross-site' } }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect(textOf(res.html)).toContain('This form was refused');
    }
    expect(await userRow(acmeStaff.email)).toBeDefined();
    expect(await actions(acmeOwner.email)).not.toContain('user.removed');
  });

  it('refuses a sign-in form posted without the page’s token (login CSRF)', async () => {
    const c = client();
    const res = await c.post('/console/sign-in', { _csrf: 'x'.repeat(43), email: acmeOwner.email, password: acmeOwner.password });
    expect(res.status).toBe(403);
    expect(c.cookies.has('paylink_console')).toBe(false);
  });
});

describe('console › one integrator’s data only', () => {
  it('answers 404 for another integrator’s user, whatever the URL or method, and changes nothing', async () => {
    const other = await signedIn(otherOwner);
    const acmeStaffId = (await userRow(acmeStaff.email)).id;
    expect((await other.get(`/console/users/${acmeStaffId}`)).status).toBe(404);
    const csrf = await other.csrf('/console');
    expect((await other.post(`/console/users/${acmeStaffId}`, { _csrf: csrf, action: 'remove' })).status).toBe(404);
    expect((await other.post(`/console/users/${acmeStaffId}`, { _csrf: csrf, action: 'role', role: 'owner' })).status).toBe(404);
    expect((await userRow(acmeStaff.email)).role).toBe('staff');
    const users = await other.get('/console/users');
    expect(users.html).not.toContain('acme.example');
    const activity = await other.get('/console/activity');
    expect(activity.html).not.toContain('acme.example');
  });

  it('answers 404 to staff for the owner pages (users, activity) and their actions', async () => {
    const staff = await signedIn(acmeStaff);
    expect((await staff.get('/console/users')).status).toBe(404);
    expect((await staff.get('/console/activity')).status).toBe(404);
    const ownerId = (await userRow(acmeOwner.email)).id;
    expect((await staff.post(`/console/users/${ownerId}`, { action: 'role', role: 'staff' }, { from: '/console' })).status).toBe(404);
    expect((await userRow(acmeOwner.email)).role).toBe('owner');
    const home = await staff.get('/console');
    expect(home.html).not.toContain('href="/console/users"');
  });
});

describe('console › users', () => {
  it('invites staff with a one-time link; the invitee chooses a password (common ones refused) and signs in', async () => {
    const owner = await signedIn(acmeOwner);
    const invited = await owner.post('/console/users', { email: 'New.Person@Acme.example', role: 'staff' });
    expect(invited.status).toBe(200);
    const link = /(http:\/\/[^<\s]+\/console\/invite\/[A-Za-z0-9_-]+)/.exec(invited.html)![1]!;
    const path = new URL(link).pathname;
    const row = await userRow('new.person@acme.example');
    expect(row.passwordHash).toBeNull();
    expect(row.inviteTokenHash).not.toContain(path.split('/').pop());

    const invitee = client();
    expect((await invitee.get(path)).status).toBe(200);
    const weak = await invitee.post(path, { password: 'password1234', confirm: 'password1234' });
    expect(weak.status).toBe(422);
    expect(textOf(weak.html)).toContain('Password is one of the most common passwords');
    const short = await invitee.post(path, { password: 'short pw', confirm: 'short pw' });
    expect(textOf(short.html)).toContain('Password must be at least 12 characters long');
    const ok = await invitee.post(path, { password: 'blue harbour lantern 7', confirm: 'blue harbour lantern 7' });
    expect(ok.status).toBe(303);
    expect((await invitee.get(path)).status).toBe(404);
    expect((await client().signIn('new.person@acme.example', 'blue harbour lantern 7')).status).toBe(303);
    expect(await actions(acmeOwner.email)).toContain('user.invited');
  });

  it('changes a role and removes a user, ending their sessions; the last owner cannot be demoted', async () => {
    const owner = await signedIn(acmeOwner);
    const ownerId = (await userRow(acmeOwner.email)).id;
    const demoteSelf = await owner.post(`/console/users/${ownerId}`, { action: 'role', role: 'staff' });
    expect(demoteSelf.status).toBe(422);
    expect(textOf(demoteSelf.html)).toContain('is the only owner');

    const person = await signedIn({ email: 'new.person@acme.example', password: 'blue harbour lantern 7' });
    const personId = (await userRow('new.person@acme.example')).id;
    expect((await owner.post(`/console/users/${personId}`, { action: 'role', role: 'owner' })).status).toBe(200);
    expect((await userRow('new.person@acme.example')).role).toBe('owner');
    expect((await person.get('/console')).status).toBe(303); // signs in again under the new role
    const removed = await owner.post(`/console/users/${personId}`, { action: 'remove' });
    expect(removed.status).toBe(303);
    expect(await served.t.app.db.select().from(consoleUsers).where(eq(consoleUsers.id, personId))).toEqual([]);
    expect((await client().signIn('new.person@acme.example', 'blue harbour lantern 7')).status).toBe(401);
    expect(await actions(acmeOwner.email)).toEqual(expect.arrayContaining(['user.role_changed', 'user.removed']));
  });

  it('lets every user change their password with the current one; other sessions end', async () => {
    const staff = await signedIn(acmeStaff);
    const elsewhere = await signedIn(acmeStaff);
    const wrong = await staff.post('/console/account', {
      action: 'password',
      current: 'not it at all!',
      password: 'silver kettle morning 4',
      confirm: 'silver kettle morning 4',
    });
    expect(wrong.status).toBe(422);
    expect(textOf(wrong.html)).toContain('Current password is not your current password');
    const common = await staff.post('/console/account', { action: 'password', current: acmeStaff.password, password: 'qwerty123456', confirm: 'qwerty123456' });
    expect(textOf(common.html)).toContain('New password is one of the most common passwords');
    const ok = await staff.post('/console/account', {
      action: 'password',
      current: acmeStaff.password,
      password: 'silver kettle morning 4',
      confirm: 'silver kettle morning 4',
    });
    expect(ok.status).toBe(200);
    expect((await staff.get('/console')).status).toBe(200);
    expect((await elsewhere.get('/console')).status).toBe(303);
    expect((await client().signIn(acmeStaff.email, 'silver kettle morning 4')).status).toBe(303);
  });

  it('keeps a password changed in the console when the same seed is applied again', async () => {
    await provision(served.t, defaultSeed());
    expect((await client().signIn(acmeStaff.email, 'silver kettle morning 4')).status).toBe(303);
    expect((await client().signIn(acmeStaff.email, acmeStaff.password)).status).toBe(401);
  });
});

describe('console › activity', () => {
  it('shows owners who did what, when and from where, newest first, 50 a page', async () => {
    const owner = await signedIn(acmeOwner);
    for (let i = 0; i < 50; i++) await client().signIn(acmeOwner.email, `mistyped password ${i}`);
    await unlock(acmeOwner.email);
    const page = await owner.get('/console/activity');
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(page.html.match(/<tr><td/g)).toHaveLength(50);
    expect(text).toContain('owner@acme.example sign_in.refused_locked owner@acme.example 127.0.0.1');
    // newest first: the refusals while locked, then the lock, then the failures that caused it
    expect(text.indexOf('sign_in.refused_locked')).toBeLessThan(text.indexOf('account.locked'));
    expect(text.indexOf('account.locked')).toBeLessThan(text.indexOf('sign_in.failed'));
    const older = await owner.get(/href="(\/console\/activity\?before=\d+)"/.exec(page.html)![1]!);
    expect(older.status).toBe(200);
    expect(textOf(older.html)).toContain('sign_in.succeeded');
    expect(older.html).toContain('href="/console/activity">Newest</a>');
    const rows = (
      await served.t.app.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.integratorId, (await userRow(acmeOwner.email)).integratorId))
    ).length;
    expect(rows).toBeGreaterThan(50);
  });
});

describe('console › two-step sign-in (TOTP)', () => {
  it('an owner turns it on with a valid code; sign-in then asks for a code, and a used code is refused', async () => {
    const owner = await signedIn(acmeOwner);
    const start = await owner.post('/console/account', { action: 'totp-start' });
    expect(start.status).toBe(200);
    expect(start.html).toContain('<svg');
    const secret = /<code class="secret">([A-Z2-7]+)<\/code>/.exec(start.html)![1]!;
    expect((await userRow(acmeOwner.email)).totpSecretEnc).not.toContain(secret);
    const wrongCode = await owner.post('/console/account', { action: 'totp-confirm', code: '000000' });
    expect(wrongCode.status).toBe(422);
    const on = await owner.post('/console/account', { action: 'totp-confirm', code: totpCode(secret, clock.now) });
    expect(on.status).toBe(200);
    expect(textOf(on.html)).toContain('Two-step sign-in is on');

    advance(1);
    const c = client();
    const first = await c.signIn(acmeOwner.email, acmeOwner.password);
    expect(first.location).toMatch(/^\/console\/sign-in\/code/);
    expect((await c.get('/console')).status).toBe(303); // half-way: no console yet
    const code = totpCode(secret, clock.now);
    const done = await c.post('/console/sign-in/code', { code });
    expect(done.status).toBe(303);
    expect((await c.get('/console')).status).toBe(200);

    const again = client();
    await again.signIn(acmeOwner.email, acmeOwner.password);
    const reused = await again.post('/console/sign-in/code', { code });
    expect(reused.status).toBe(401);
    expect(await actions(acmeOwner.email)).toEqual(expect.arrayContaining(['totp.enabled', 'sign_in.second_factor_failed']));
  });

  it('stays off for staff: the account page offers no set-up and refuses one', async () => {
    const staff = await signedIn({ email: acmeStaff.email, password: 'silver kettle morning 4' });
    expect((await staff.get('/console/account')).html).not.toContain('Set up two-step sign-in');
    expect((await staff.post('/console/account', { action: 'totp-start' })).status).toBe(404);
    const row = await served.t.app.db
      .select()
      .from(consoleUsers)
      .where(and(eq(consoleUsers.email, acmeStaff.email)));
    expect(row[0]!.totpSecretEnc).toBeNull();
  });
});
