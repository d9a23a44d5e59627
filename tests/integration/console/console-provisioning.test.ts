import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleSessions, consoleUsers } from '../../../src/db/schema.ts';
import { purgeSessions, signIn } from '../../../src/domain/accounts/sessions.ts';
import { applyProvisioning } from '../../../src/domain/integrators/provisioning.ts';
import { createTestApp, defaultSeed, provision, type TestApp, useServedApp } from '../../support/app.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';
import { recordStatusCode } from '../../support/status-codes-seen.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
const from = { ip: '203.0.113.9', userAgent: 'test' };

describe('console › provisioning', () => {
  it('gives the demo integrator an owner whose generated password signs in, written to demo-credentials.json only', async () => {
    t = await createTestApp();
    const result = await applyProvisioning(t.app, undefined);
    const creds = JSON.parse(readFileSync(join(t.dataDir, 'demo-credentials.json'), 'utf8'));
    expect(creds).toMatchObject({ console_email: 'owner@paylink.localhost', console_url: expect.stringMatching(/\/console$/) });
    expect(creds.console_password.length).toBeGreaterThanOrEqual(20);
    expect(result.demo?.credentials.console_password).toBe(creds.console_password);
    const [row] = await t.app.db.select().from(consoleUsers);
    expect(row).toMatchObject({ email: 'owner@paylink.localhost', role: 'owner' });
    expect(row!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(JSON.stringify(row)).not.toContain(creds.console_password);
    expect((await signIn(t.app, { email: creds.console_email, password: creds.console_password }, from)).kind).toBe('signed-in');
  });

  it('hashes a seeded clear-text password and never logs it', async () => {
    t = await createTestApp();
    const seed = defaultSeed();
    seed.integrators[1]!.users = [{ email: 'Ops.Lead@Other.example', password: 'granite orchard whistle', role: 'owner' }];
    await provision(t, seed);
    const [row] = await t.app.db.select().from(consoleUsers).where(eq(consoleUsers.email, 'ops.lead@other.example'));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(t.logs.join('\n')).not.toContain('granite orchard whistle');
    expect((await signIn(t.app, { email: 'ops.lead@other.example', password: 'granite orchard whistle' }, from)).kind).toBe('signed-in');
  });

  it('refuses a seed with a weak password, both password and password_hash, or a user of another integrator', async () => {
    t = await createTestApp();
    const weak = defaultSeed();
    weak.integrators[0]!.users = [{ email: 'a@acme.example', password: 'password1234', role: 'owner' }];
    await expect(provision(t, weak)).rejects.toThrow('user a@acme.example: password is one of the most common passwords');
    const both = defaultSeed() as unknown as { integrators: Array<{ users: unknown[] }> };
    both.integrators[0]!.users = [{ email: 'a@acme.example', password: 'granite orchard whistle', password_hash: '$argon2id$x', role: 'owner' }];
    await expect(provision(t, both as never)).rejects.toThrow('give exactly one of password and password_hash');
    const twice = defaultSeed();
    twice.integrators[1]!.users = [{ email: 'owner@acme.example', password: 'granite orchard whistle', role: 'owner' }];
    await expect(provision(t, twice)).rejects.toThrow('the e-mail belongs to a user of another integrator');
  });

  it('sets a seeded password again only when the seed’s password changed', async () => {
    t = await createTestApp();
    const seed = defaultSeed();
    seed.integrators[1]!.users = [{ email: 'ops@other.example', password: 'granite orchard whistle', role: 'owner' }];
    await provision(t, seed);
    const first = (await t.app.db.select().from(consoleUsers).where(eq(consoleUsers.email, 'ops@other.example')))[0]!;
    await provision(t, seed);
    const same = (await t.app.db.select().from(consoleUsers).where(eq(consoleUsers.email, 'ops@other.example')))[0]!;
    expect(same.passwordHash).toBe(first.passwordHash);
    seed.integrators[1]!.users = [{ email: 'ops@other.example', password: 'copper lantern meadow', role: 'staff' }];
    await provision(t, seed);
    expect((await signIn(t.app, { email: 'ops@other.example', password: 'copper lantern meadow' }, from)).kind).toBe('signed-in');
  });
});

describe('console › sign-ins per client address', () => {
  const served = useServedApp({ env: { PAYLINK_LIMIT_SIGN_IN_FAILURES: '3/900' } });

  it('refuses an address after 3 failed sign-ins across accounts (429), the right password too, and says when to retry', async () => {
    const c = () => new ConsoleClient(served.server.url);
    for (const email of ['owner@acme.example', 'staff@acme.example', 'nobody@example.com'])
      expect((await c().signIn(email, 'wrong password here')).status).toBe(401);
    const limited = await c().signIn('owner@other.example', 'other owner passphrase 3');
    expect(limited.status).toBe(429);
    expect(textOf(limited.html)).toMatch(/Too many sign-ins from your network failed\. Try again in \d+ minutes\./);
    // The page words the limit's refusal for the test client (127.0.0.1); the refusal itself carries the catalogue code.
    const refusal = await served.t.app.rateLimits.beginSignIn('127.0.0.1').catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: 'ER.01.03' });
    recordStatusCode({ data: { status_code: (refusal as { code: string }).code } });
    const row = (await served.t.app.db.select().from(consoleUsers).where(eq(consoleUsers.email, 'owner@other.example')))[0]!;
    expect(row.lastSignInAt).toBeNull();
  });
});

describe('console › session purge', () => {
  it('deletes sessions past their idle timeout or lifetime and keeps live ones', async () => {
    let now = new Date('2026-03-02T09:00:00Z');
    t = await createTestApp({ now: () => now });
    await provision(t);
    await signIn(t.app, { email: 'owner@acme.example', password: 'acme owner passphrase 1' }, from);
    now = new Date('2026-03-02T09:10:00Z');
    await signIn(t.app, { email: 'staff@acme.example', password: 'acme staff passphrase 2' }, from);
    now = new Date('2026-03-02T09:16:00Z');
    expect(await purgeSessions(t.app)).toBe(1);
    expect(await t.app.db.select().from(consoleSessions)).toHaveLength(1);
  });
});

describe('console › cookies over HTTPS', () => {
  const served = useServedApp({ env: { PUBLIC_URL: 'https://pay.acme.example' } });

  it('marks the session cookie Secure and binds it to the host (__Host- prefix) when paylink is served over HTTPS', async () => {
    // The browser is on PUBLIC_URL's page: that is the origin its forms carry.
    const c = new ConsoleClient(served.server.url, { origin: 'https://pay.acme.example' });
    const res = await c.signIn('owner@acme.example', 'acme owner passphrase 1');
    expect(res.status).toBe(303);
    const cookie = res.headers.getSetCookie().find((l) => l.startsWith('__Host-paylink_console='))!;
    expect(cookie).toMatch(/; Path=\/;/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect((await c.get('/console')).status).toBe(200);
  });
});
