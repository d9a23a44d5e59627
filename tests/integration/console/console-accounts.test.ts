import { join } from 'node:path';
import * as argon2 from '@node-rs/argon2';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { auditLog, consoleMail, consoleSessions, consoleUsers } from '../../../src/db/schema.ts';
import { renderConsoleMail } from '../../../src/domain/accounts/mail.ts';
import { PASSWORD_BUSY_HOLD_MS, PasswordHasher } from '../../../src/domain/accounts/passwords.ts';
import { type ConsoleIdentity, resolveSession, signIn } from '../../../src/domain/accounts/sessions.ts';
import { totpCode } from '../../../src/domain/accounts/totp.ts';
import { changePassword, changeRole, removeUser } from '../../../src/domain/accounts/users.ts';
import { closeServer, createHttpServer, listen } from '../../../src/http/server.ts';
import { CONSOLE_USERS, createTestApp, defaultSeed, provision, useServedApp } from '../../support/app.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';
import { getRequest, lengthRequest, rawExchange } from '../../support/raw-http.ts';
import { recordStatusCode } from '../../support/status-codes-seen.ts';

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

  it('locks an account after 10 failed sign-ins for 30 minutes, refusing even the right password meanwhile in the words of a wrong one; its owner is told by e-mail', async () => {
    for (let i = 1; i <= 9; i++) expect((await client().signIn(acmeStaff.email, `wrong password ${i}!`)).status).toBe(401);
    const tenth = await client().signIn(acmeStaff.email, 'wrong password 10!');
    const right = await client().signIn(acmeStaff.email, acmeStaff.password);
    const unknown = await client().signIn('nobody@acme.example', acmeStaff.password);
    for (const res of [tenth, right, unknown]) {
      expect(res.status).toBe(401);
      expect(textOf(res.html)).toContain('The email or password is not right.');
      expect(textOf(res.html)).not.toMatch(/locked until|locked after/i);
    }
    // A locked account and an unknown address answer the same page, word for word.
    expect(textOf(right.html)).toBe(textOf(unknown.html).replace('nobody@acme.example', acmeStaff.email));
    expect(right.headers.getSetCookie().some((l) => l.startsWith('paylink_console='))).toBe(false);
    const mails = await served.t.app.db.select().from(consoleMail).where(eq(consoleMail.emailTo, acmeStaff.email));
    expect(mails.map((m) => m.kind)).toEqual(['locked']);
    const mail = renderConsoleMail(served.t.app, mails[0]!);
    expect(mail.subject).toBe('Your paylink console account is locked for now');
    expect(mail.text).toContain(`until ${new Date(clock.now.getTime() + 30 * 60_000).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    expect(mail.text).toContain('The last failed attempt came from 127.0.0.1.');
    advance(29);
    expect((await client().signIn(acmeStaff.email, acmeStaff.password)).status).toBe(401);
    advance(2);
    expect((await client().signIn(acmeStaff.email, acmeStaff.password)).status).toBe(303);
    expect(await actions(acmeStaff.email)).toEqual(expect.arrayContaining(['account.locked', 'sign_in.refused_locked', 'sign_in.succeeded']));
    expect((await userRow(acmeStaff.email)).failedSignIns).toBe(0);
    await served.t.app.db.delete(consoleMail).where(eq(consoleMail.emailTo, acmeStaff.email));
  });

  it('counts each of 30 wrong passwords sent at once exactly once: one lock, one lock e-mail, one audit entry per attempt', async () => {
    const { app } = served.t;
    const from = { ip: '203.0.113.9', userAgent: 'parallel' };
    const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(app, { email: acmeStaff.email, password: `wrong password ${i}!` }, from)));
    expect(outcomes.every((o) => o.kind === 'refused')).toBe(true);
    const row = await userRow(acmeStaff.email);
    expect(row.lockedUntil?.getTime()).toBe(clock.now.getTime() + 30 * 60_000);
    const entries = (
      await app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.actorEmail, acmeStaff.email), eq(auditLog.ip, from.ip)))
    ).map((e) => e.action);
    // Failures counted up to the lock, then refusals of a locked account; never an attempt lost or written twice.
    expect(entries.filter((a) => a === 'sign_in.failed').length).toBe(10);
    expect(entries.filter((a) => a === 'sign_in.refused_locked').length).toBe(20);
    expect(entries.filter((a) => a === 'account.locked').length).toBe(1);
    expect(row.failedSignIns).toBe(10);
    const mails = await app.db.select().from(consoleMail).where(eq(consoleMail.emailTo, acmeStaff.email));
    expect(mails.map((m) => m.kind)).toEqual(['locked']);
    await app.db.delete(consoleMail).where(eq(consoleMail.emailTo, acmeStaff.email));
    await unlock(acmeStaff.email);
  });

  it('an unknown address costs the same as a known one: every refusal runs exactly one password check', async () => {
    const acmeId = (await userRow(acmeOwner.email)).integratorId;
    await served.t.app.db
      .insert(consoleUsers)
      .values({ id: 'usr_not_set_up', integratorId: acmeId, email: 'invited@acme.example', role: 'staff', createdAt: clock.now });
    await served.t.app.db
      .update(consoleUsers)
      .set({ lockedUntil: new Date(clock.now.getTime() + 60_000) })
      .where(eq(consoleUsers.email, otherOwner.email));
    const checksFor = async (email: string, password: string) => {
      const before = served.t.app.passwords.verifications;
      const res = await client().signIn(email, password);
      return { status: res.status, checks: served.t.app.passwords.verifications - before };
    };
    expect(await checksFor('nobody@acme.example', 'a password of some kind')).toEqual({ status: 401, checks: 1 });
    expect(await checksFor(acmeStaff.email, 'a password of some kind')).toEqual({ status: 401, checks: 1 });
    expect(await checksFor('invited@acme.example', 'a password of some kind')).toEqual({ status: 401, checks: 1 });
    expect(await checksFor(otherOwner.email, otherOwner.password)).toEqual({ status: 401, checks: 1 });
    expect(await checksFor(acmeOwner.email, acmeOwner.password)).toEqual({ status: 303, checks: 1 });
    await served.t.app.db.delete(consoleUsers).where(eq(consoleUsers.id, 'usr_not_set_up'));
    await unlock(otherOwner.email);
    await unlock(acmeStaff.email);
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
      await owner.post(path, { _csrf: '', action: 'remove', confirmed: 'yes' }),
      await owner.post(path, { _csrf: await other.csrf('/console'), action: 'remove', confirmed: 'yes' }),
      await owner.post(path, { action: 'remove', confirmed: 'yes' }, { headers: { origin: 'https://evil.example' } }),
      await owner.post(path, { action: 'remove', confirmed: 'yes' }, { headers: { origin: 'null' } }),
      await owner.post(path, { action: 'remove', confirmed: 'yes' }, { headers: { 'sec-fetch-site': 'cross-site' } }),
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
    expect((await other.post(`/console/users/${acmeStaffId}`, { _csrf: csrf, action: 'remove', confirmed: 'yes' })).status).toBe(404);
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

  it('answers an invitation of an address from another merchant’s console as it answers a new address, and makes nothing; the address’s holder is told', async () => {
    const owner = await signedIn(acmeOwner);
    const statusBox = (html: string) =>
      textOf(/<div class="success" role="status">[\s\S]*?<\/div>/.exec(html)?.[0] ?? '')
        .replace(/\/console\/invite\/[A-Za-z0-9_-]+/, '/console/invite/…')
        .replace(/ until [^)]+\)/, ' until …)')
        .replace(/^\S+@\S+ is invited/, '… is invited');
    const fresh = await owner.post('/console/users', { email: 'fresh.person@acme.example', role: 'staff' });
    const elsewhere = await owner.post('/console/users', { email: otherOwner.email, role: 'staff' });
    expect(elsewhere.status).toBe(200);
    expect(fresh.status).toBe(200);
    expect(statusBox(elsewhere.html)).toContain('… is invited.');
    expect(statusBox(elsewhere.html)).toBe(statusBox(fresh.html));
    expect(textOf(elsewhere.html)).not.toContain('already');
    expect(await userRow(otherOwner.email)).toMatchObject({ role: 'owner', integratorId: (await userRow(otherOwner.email)).integratorId });
    expect((await userRow(otherOwner.email)).integratorId).not.toBe((await userRow(acmeOwner.email)).integratorId);
    const told = await served.t.app.db.select().from(consoleMail).where(eq(consoleMail.emailTo, otherOwner.email));
    expect(told.map((m) => [m.kind, m.userId])).toEqual([['address_taken', null]]);
    const mail = renderConsoleMail(served.t.app, told[0]!);
    expect(mail.subject).toBe('Acme Books tried to invite you to their paylink console');
    expect(mail.text).toContain('no invitation was made');
    expect(await actions(acmeOwner.email)).toContain('user.invite_elsewhere');
    // Someone already in this console: the owner sees them in the list anyway, so the form says so.
    const own = await owner.post('/console/users', { email: acmeStaff.email, role: 'staff' });
    expect(own.status).toBe(422);
    expect(textOf(own.html)).toContain('is already a user of this console');
    await served.t.app.db.delete(consoleMail);
    await served.t.app.db.delete(consoleUsers).where(eq(consoleUsers.email, 'fresh.person@acme.example'));
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
    const removed = await owner.postConfirmed(`/console/users/${personId}`, { action: 'remove' });
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
    expect(page.html.match(/<tr data-action=/g)).toHaveLength(50);
    expect(text).toContain('owner@acme.example Sign-in refused: the account is locked 127.0.0.1');
    // In words: no dotted action names on the page.
    expect(text).not.toMatch(/sign_in\.|account\.locked/);
    // newest first: the refusals while locked, then the lock, then the failures that caused it
    expect(text.indexOf('Sign-in refused: the account is locked')).toBeLessThan(text.indexOf('Account locked after too many failed sign-ins'));
    expect(text.indexOf('Account locked after too many failed sign-ins')).toBeLessThan(text.indexOf('Failed sign-in: wrong password'));
    const older = await owner.get(/href="(\/console\/activity\?before=\d+)"/.exec(page.html)![1]!);
    expect(older.status).toBe(200);
    expect(textOf(older.html)).toContain('Signed in');
    expect(older.html).toContain('href="/console/activity">← Newest</a>');
    const rows = (
      await served.t.app.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.integratorId, (await userRow(acmeOwner.email)).integratorId))
    ).length;
    expect(rows).toBeGreaterThan(50);
  });

  it('filters by who and by what, keeps the filters on the next page, and refuses a filter it cannot use', async () => {
    const owner = await signedIn(acmeOwner);
    await owner.post('/console/users', { email: 'words-filter@acme.example', role: 'staff' });
    await client().signIn('nobody-here@acme.example', 'not a password at all');
    const users = await owner.get('/console/activity?action=users');
    expect(users.status).toBe(200);
    const usersText = textOf(users.html);
    expect(usersText).toContain('Invited words-filter@acme.example as staff');
    expect(usersText).not.toContain('Signed in');
    expect(users.html).toMatch(/Invited words-filter@acme\.example as staff · <a href="\/console\/users\/usr_[^"]+">View user<\/a>/);
    expect(users.html).toContain('<option value="users" selected>');

    const mine = textOf((await owner.get(`/console/activity?user=${encodeURIComponent(acmeOwner.email.toUpperCase())}&action=sign-in`)).html);
    expect(mine).toContain('Signed in');
    expect(mine).not.toContain('Invited');
    expect(mine).not.toContain('an e-mail that has no account');

    const bad = await owner.get('/console/activity?action=everything&before=x');
    expect(bad.status).toBe(400);
    expect(textOf(bad.html)).toContain('The kind of activity must be one of sign-in, refunds, links, schedules, users, developers');
    expect(textOf(bad.html)).toContain('The “Older” position must be the number of an entry');
  });
});

describe('console › two-step sign-in (TOTP)', () => {
  it('an owner turns it on with a valid code; sign-in then asks for a code, and a used code is refused', async () => {
    const owner = await signedIn(acmeOwner);
    const start = await owner.post('/console/account', { action: 'totp-start' });
    expect(start.status).toBe(200);
    expect(start.html).toContain('<svg');
    // The key is shown in blocks of 4, each kept whole on a line; its copy is the key itself.
    const shown = /data-testid="totp-key">([\s\S]*?)<\/code>/.exec(start.html)![1]!;
    expect([...shown.matchAll(/<span class="group">([A-Z2-7]+)<\/span>/g)].map((m) => m[1]!.length)).toEqual([4, 4, 4, 4, 4, 4, 4, 4]);
    const secret = shown.replace(/<[^>]+>|\s/g, '');
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

describe('console › checks of the signed-in user’s own password', () => {
  it('counts wrong current passwords on the change-password form towards the lockout; the one that locks signs every session out', async () => {
    const password = 'silver kettle morning 4';
    const staff = await signedIn({ email: acmeStaff.email, password });
    const elsewhere = await signedIn({ email: acmeStaff.email, password });
    const identity = (await resolveSession(served.t.app, staff.cookies.get('paylink_console')))!;
    const form = (current: string) => ({ action: 'password', current, password: 'amber meadow violin 9', confirm: 'amber meadow violin 9' });
    for (let i = 1; i <= 9; i++) expect((await staff.post('/console/account', form(`guess number ${i}!`))).status).toBe(422);
    expect((await userRow(acmeStaff.email)).failedSignIns).toBe(9);
    const tenth = await staff.post('/console/account', form('guess number 10!'));
    expect(tenth.status).toBe(423);
    expect(textOf(tenth.html)).toMatch(/your account is locked until \d\d:\d\d UTC and every session of it is signed out/);
    expect((await staff.get('/console')).status).toBe(303);
    expect((await elsewhere.get('/console')).status).toBe(303);
    // Locked: the right password is refused too, on the form and at sign-in.
    const refusal = await changePassword(served.t.app, identity, form(password), { ip: '127.0.0.1', userAgent: null }).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: 'ER.01.05' });
    recordStatusCode({ data: { status_code: (refusal as { code: string }).code } });
    expect((await client().signIn(acmeStaff.email, password)).status).toBe(401);
    expect((await served.t.app.db.select().from(consoleMail).where(eq(consoleMail.emailTo, acmeStaff.email))).map((m) => m.kind)).toEqual(['locked']);
    expect(await actions(acmeStaff.email)).toEqual(expect.arrayContaining(['account.check_failed', 'account.locked']));
    await unlock(acmeStaff.email);
    await served.t.app.db.delete(consoleMail);
  });

  it('turns two-step sign-in off only with the password and a current code; a wrong one counts towards the lockout', async () => {
    advance(1);
    const row = await userRow(acmeOwner.email);
    const secret = served.t.app.secrets.open(row.totpSecretEnc!);
    const owner = client();
    await owner.signIn(acmeOwner.email, acmeOwner.password);
    expect((await owner.post('/console/sign-in/code', { code: totpCode(secret, clock.now) })).status).toBe(303);
    const passwordOnly = await owner.post('/console/account', { action: 'totp-disable', totp_password: acmeOwner.password });
    expect(passwordOnly.status).toBe(422);
    expect(textOf(passwordOnly.html)).toContain('is not the current code from your authenticator app');
    const wrongCode = await owner.post('/console/account', { action: 'totp-disable', totp_password: acmeOwner.password, totp_code: '000000' });
    expect(wrongCode.status).toBe(422);
    expect(await userRow(acmeOwner.email)).toMatchObject({ failedSignIns: 2, totpEnabledAt: row.totpEnabledAt });
    advance(1);
    const off = await owner.post('/console/account', { action: 'totp-disable', totp_password: acmeOwner.password, totp_code: totpCode(secret, clock.now) });
    expect(off.status).toBe(200);
    expect(textOf(off.html)).toContain('Two-step sign-in is off.');
    expect(await userRow(acmeOwner.email)).toMatchObject({ failedSignIns: 0, totpEnabledAt: null, totpSecretEnc: null });
  });
});

describe('console › owners changed at once', () => {
  it('two owners demoting or removing each other at the same moment leave one owner, never none', async () => {
    const t = await createTestApp();
    try {
      await provision(t);
      const from = { ip: '203.0.113.9', userAgent: 'test' };
      const [first] = await t.app.db.select().from(consoleUsers).where(eq(consoleUsers.email, acmeOwner.email));
      const identityOf = (u: typeof consoleUsers.$inferSelect): ConsoleIdentity => ({
        sessionId: `ses_${u.id}`,
        user: { id: u.id, email: u.email, role: 'owner', integratorId: u.integratorId, totpEnabledAt: null },
        integratorName: 'Acme Books',
      });
      for (let round = 0; round < 6; round++) {
        await t.app.db.delete(consoleUsers).where(eq(consoleUsers.integratorId, first!.integratorId));
        const second = { ...first!, id: `usr_second_${round}`, email: `second.${round}@acme.example` };
        await t.app.db.insert(consoleUsers).values([first!, second]);
        const [a, b] = [identityOf(first!), identityOf(second)];
        const act =
          round % 2 === 0
            ? (me: ConsoleIdentity, them: ConsoleIdentity) => changeRole(t.app, me, them.user.id, { role: 'staff' }, from)
            : (me: ConsoleIdentity, them: ConsoleIdentity) => removeUser(t.app, me, them.user.id, from);
        const results = await Promise.allSettled([act(a, b), act(b, a)]);
        expect(
          results.filter((r) => r.status === 'fulfilled'),
          `round ${round}`,
        ).toHaveLength(1);
        const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        expect(refused.reason).toMatchObject({ code: 'ER.02.30' });
        expect(JSON.stringify(refused.reason.messages)).toContain('is the only owner: make someone else an owner first');
        const owners = await t.app.db
          .select()
          .from(consoleUsers)
          .where(and(eq(consoleUsers.integratorId, first!.integratorId), eq(consoleUsers.role, 'owner')));
        expect(owners, `round ${round}`).toHaveLength(1);
      }
    } finally {
      await t.close();
    }
  });
});

describe('console › sign-ins from one address, all at once', () => {
  const limited = useServedApp({ env: { PAYLINK_LIMIT_SIGN_IN_FAILURES: '30/900' } });

  it('checks at most the limit’s 30 passwords of 80 parallel attempts from one address; the others are refused (429)', async () => {
    const before = limited.t.app.passwords.verifications;
    const answers = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        new ConsoleClient(limited.server.url).signIn(i % 2 ? `guess.${i}@acme.example` : acmeStaff.email, `guessed password ${i}`),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(limited.t.app.passwords.verifications - before).toBeLessThanOrEqual(30);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(30);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    const right = await new ConsoleClient(limited.server.url).signIn(acmeOwner.email, acmeOwner.password);
    expect(right.status).toBe(429);
  });
});

describe('console › sign-in while many passwords are being checked', () => {
  const busy = useServedApp({ env: { PAYLINK_PASSWORD_CHECK_QUEUE: '1' } });

  it('holds a sign-in for a second when the queue of password checks is full, then refuses it with 503, Retry-After and words; signs in once it drained', async () => {
    const { app } = busy.t;
    const configured = app.passwords;
    expect(app.config.console.passwordCheckQueue).toBe(1);
    // The checks are held until the test lets them go, so the queue stays full meanwhile.
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    app.passwords = new PasswordHasher(app.config.console.passwordCheckQueue, 1, {
      hash: argon2.hash,
      verify: async (...args) => gate.then(() => argon2.verify(...args)),
    });
    try {
      const stored = (await app.db.select().from(consoleUsers).where(eq(consoleUsers.email, acmeStaff.email)))[0]!.passwordHash!;
      const queued = [app.passwords.verify('first', stored), app.passwords.verify('second', stored)];
      const refusal = await app.passwords.verify('third', stored).catch((error: unknown) => error);
      expect(refusal).toMatchObject({ code: 'ER.01.04' });
      recordStatusCode({ data: { status_code: (refusal as { code: string }).code } });
      const asked = performance.now();
      const res = await new ConsoleClient(busy.server.url).signIn(acmeOwner.email, acmeOwner.password);
      expect(res.status).toBe(503);
      // Held for PASSWORD_BUSY_HOLD_MS first: a client that sends again at once is slowed to one a second.
      expect(performance.now() - asked).toBeGreaterThanOrEqual(PASSWORD_BUSY_HOLD_MS - 50);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(textOf(res.html)).toContain('Too many sign-ins are being checked right now. Wait a few seconds and try again.');
      letGo();
      expect(await Promise.all(queued)).toEqual([false, false]);
      // The two queued checks ran; the refused check and the refused sign-in ran none.
      expect(app.passwords.verifications).toBe(2);
      expect((await new ConsoleClient(busy.server.url).signIn(acmeOwner.email, acmeOwner.password)).status).toBe(303);
    } finally {
      app.passwords = configured;
    }
  });

  it('lets a held sign-in go on to the routes as soon as a place in the queue frees, within the second', async () => {
    const { app } = busy.t;
    const configured = app.passwords;
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    app.passwords = new PasswordHasher(1, 1, { hash: argon2.hash, verify: async () => gate.then(() => false) });
    let reachedRoutes = 0;
    const server = createHttpServer(app, {
      astroHandler: (_req, res) => {
        reachedRoutes++;
        res.end('routes');
      },
      clientDir: join(process.cwd(), 'dist', 'client'),
    });
    const port = await listen(server, '127.0.0.1', 0);
    try {
      const queued = [app.passwords.verify('first', 'x'), app.passwords.verify('second', 'x')];
      expect(app.passwords.full).toBe(true);
      const form = Buffer.from(`_csrf=x&email=${encodeURIComponent(acmeOwner.email)}&password=wrong`);
      const held = rawExchange(
        `http://127.0.0.1:${port}`,
        lengthRequest('POST', '/console/sign-in', form, { 'Content-Type': 'application/x-www-form-urlencoded' }),
      );
      await vi.waitFor(() => expect(app.passwords.heldCount).toBe(1));
      expect(reachedRoutes).toBe(0);
      // The running check ends and the queued one starts: its place goes to the held sign-in.
      letGo();
      const { responses } = await held;
      expect(responses[0]?.body).toBe('routes');
      expect(reachedRoutes).toBe(1);
      expect(app.passwords.heldCount).toBe(0);
      await Promise.all(queued);
    } finally {
      await closeServer(server, 1000);
      app.passwords = configured;
    }
  });

  it('refuses a sign-in with a full queue before the page runs: no request is built for it, and its connection carries the next one', async () => {
    const { app } = busy.t;
    const configured = app.passwords;
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    app.passwords = new PasswordHasher(1, 1, { hash: argon2.hash, verify: async () => gate.then(() => false) });
    // The routes, as a handler that counts what reaches it.
    let reachedRoutes = 0;
    const server = createHttpServer(app, {
      astroHandler: (_req, res) => {
        reachedRoutes++;
        res.end('routes');
      },
      clientDir: join(process.cwd(), 'dist', 'client'),
    });
    const port = await listen(server, '127.0.0.1', 0);
    try {
      const queued = [app.passwords.verify('first', 'x'), app.passwords.verify('second', 'x')];
      expect(app.passwords.full).toBe(true);
      const form = Buffer.from(`_csrf=x&email=${encodeURIComponent(acmeOwner.email)}&password=wrong`);
      const { responses } = await rawExchange(
        `http://127.0.0.1:${port}`,
        [...lengthRequest('POST', '/console/sign-in?next=%2Fconsole', form, { 'Content-Type': 'application/x-www-form-urlencoded' }), getRequest('/healthz')],
        { responses: 2 },
      );
      expect(responses.map((r) => r.status)).toEqual([503, 200]);
      expect(responses[0]!.headers['retry-after']).toBe('2');
      expect(responses[0]!.headers['cache-control']).toBe('no-store');
      expect(responses[0]!.headers['x-frame-options']).toBe('DENY');
      expect(responses[0]!.body).toContain('Too many sign-ins are being checked right now. Wait a few seconds and try again.');
      expect(reachedRoutes).toBe(0);
      letGo();
      await Promise.all(queued);
      // With room in the queue, the sign-in goes on to the routes.
      const after = await rawExchange(
        `http://127.0.0.1:${port}`,
        lengthRequest('POST', '/console/sign-in', form, { 'Content-Type': 'application/x-www-form-urlencoded' }),
      );
      expect(after.responses[0]?.body).toBe('routes');
      expect(reachedRoutes).toBe(1);
    } finally {
      await closeServer(server, 1000);
      app.passwords = configured;
    }
  });
});
