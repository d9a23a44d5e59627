import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import * as schema from '../../../src/db/schema.ts';
import { updateIntegratorSettings } from '../../../src/domain/integrators/profile.ts';
import { applyProvisioning, ProvisioningError } from '../../../src/domain/integrators/provisioning.ts';
import { findIntegratorByToken, hashToken } from '../../../src/domain/integrators/service.ts';
import { recordCharge } from '../../../src/domain/payments/record.ts';
import type { SeedIntegrator } from '../../../src/schemas/provisioning.ts';
import { startCallbackLoop } from '../../../src/workers/callbacks.ts';
import { CONSOLE_USERS, createTestApp, defaultSeed, provision, sandboxOf, TEST_SECRET, TEST_TOKEN, type TestApp } from '../../support/app.ts';
import { CARD_EXP } from '../../support/cards.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function tableCounts(app: TestApp['app']) {
  const tables = { integrators: schema.integrators, links: schema.links, assets: schema.assets, cards: schema.cardRegistrations, vault: schema.sandboxVault };
  const out: Record<string, number> = {};
  for (const [name, table] of Object.entries(tables)) out[name] = (await app.db.select({ n: count() }).from(table))[0]!.n;
  return out;
}

const PNG_1PX = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('provisioning', () => {
  it('applies the same seed twice with the same rows (idempotent, no duplicates)', async () => {
    t = await createTestApp();
    const seed = defaultSeed();
    seed.integrators[0]!.links[0]!.logo = PNG_1PX;
    await provision(t, seed);
    const first = await tableCounts(t.app);
    const linksBefore = await t.app.db.select().from(schema.links).orderBy(schema.links.slug);
    await provision(t, seed);
    expect(await tableCounts(t.app)).toEqual(first);
    expect(first).toEqual({ integrators: 2, links: 3, assets: 1, cards: 2, vault: 2 });
    const linksAfter = await t.app.db.select().from(schema.links).orderBy(schema.links.slug);
    expect(linksAfter.map((l) => [l.id, l.slug, l.logoAssetId])).toEqual(linksBefore.map((l) => [l.id, l.slug, l.logoAssetId]));
  });

  it('updates what changed in the seed and never deletes payments or links left out', async () => {
    t = await createTestApp();
    await provision(t);
    const acme = (await findIntegratorByToken(t.app.db, TEST_TOKEN))!;
    const charge = await sandboxOf(t.app).acquirer.charge(
      { source: { card: { number: '4242424242424242', ...CARD_EXP, cvc: '123' } }, amountMinor: 100n, currency: 'PHP' },
      { idempotencyKey: 'prov-test' },
    );
    await t.app.db.transaction((tx) =>
      recordCharge(t!.app, tx, { integratorId: acme.id, result: charge, amountMinor: 100n, currency: 'PHP', idempotencyKey: 'prov-test', now: t!.app.now() }),
    );
    const seed = defaultSeed();
    seed.integrators[0]!.name = 'Acme Books Ltd';
    seed.integrators[0]!.links = [{ ...seed.integrators[0]!.links[0]!, title: 'New title', amount: '300.00' }];
    await provision(t, seed);
    const [link] = await t.app.db.select().from(schema.links).where(sql`slug = 'acme-books'`);
    expect(link).toMatchObject({ title: 'New title', amountMinor: 30000n });
    expect((await tableCounts(t.app)).links).toBe(3);
    expect((await t.app.db.select({ n: count() }).from(schema.payments))[0]!.n).toBe(1);
    expect((await findIntegratorByToken(t.app.db, TEST_TOKEN))?.name).toBe('Acme Books Ltd');
  });

  it('stores the API token only as a hash and the JWT secret only encrypted', async () => {
    t = await createTestApp();
    await provision(t);
    const rows = await t.app.db.select().from(schema.integrators);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(TEST_TOKEN);
    expect(dump).not.toContain(TEST_SECRET);
    const acme = rows.find((r) => r.email === 'billing@acme.example')!;
    expect(acme.tokenHash).toBe(hashToken(TEST_TOKEN));
    expect(t.app.secrets.open(acme.secretEnc)).toBe(TEST_SECRET);
    expect(t.app.secrets.open(acme.webhookSecretEnc)).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
  });

  it('refuses an invalid seed with messages naming each bad field', async () => {
    t = await createTestApp();
    const path = join(t.dataDir, 'bad-seed.json');
    writeFileSync(
      path,
      JSON.stringify({
        integrators: [{ name: 'X', email: 'not-an-email', token: 'short', secret: 's', links: [{ slug: 'Bad Slug', title: 'x', currency: 'PHP' }] }],
      }),
    );
    await expect(applyProvisioning(t.app, path)).rejects.toThrow(
      /integrators\.0\.email[\s\S]*integrators\.0\.token[\s\S]*integrators\.0\.secret[\s\S]*integrators\.0\.links\.0\.slug/,
    );
    writeFileSync(
      path,
      JSON.stringify({ integrators: [{ ...defaultSeed().integrators[0], links: [{ slug: 'x', title: 'x', currency: 'PHP', amount: '1.005' }] }] }),
    );
    await expect(applyProvisioning(t.app, path)).rejects.toThrow('link x: amount: PHP allows at most 2 decimal places');
    writeFileSync(
      path,
      JSON.stringify({
        integrators: [{ ...defaultSeed().integrators[0], links: [{ slug: 'x', title: 'x', currency: 'PHP', logo: 'data:text/html;base64,PGh0bWw+' }] }],
      }),
    );
    await expect(applyProvisioning(t.app, path)).rejects.toThrow('logo: the logo must be a PNG, JPEG, WebP or SVG image');
    expect((await tableCounts(t.app)).integrators).toBe(0);
  });

  it('lists every mistake of a bad seed in one apply, each under its path in the file, and applies nothing', async () => {
    t = await createTestApp();
    const [acme, other] = defaultSeed().integrators as [SeedIntegrator, SeedIntegrator];
    const path = join(t.dataDir, 'mistakes.json');
    writeFileSync(
      path,
      JSON.stringify({
        integrators: [
          // A mistake the schema finds.
          { ...other, email: 'not-an-email' },
          // Mistakes only the apply finds: a third-decimal amount, a logo that is no image, a common password.
          {
            ...acme,
            links: [
              { slug: 'ok-link', title: 'Fine', currency: 'PHP', amount: '10.00' },
              { slug: 'three-decimals', title: 'x', currency: 'PHP', amount: '1.005' },
              { slug: 'html-logo', title: 'x', currency: 'PHP', logo: 'data:text/html;base64,PGh0bWw+' },
            ],
            users: [{ email: 'weak@acme.example', password: 'password123', role: 'staff' }],
          },
          // A slug the integrator before already took.
          {
            ...other,
            email: 'third@other.example',
            token: 'third_token_0123456789abcdefghijklmnop',
            links: [{ slug: 'ok-link', title: 'Taken', currency: 'PHP' }],
          },
        ],
      }),
    );
    const error = await applyProvisioning(t.app, path).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(ProvisioningError);
    const lines = error!.message.split('\n');
    expect(lines.slice(1), error!.message).toHaveLength(5);
    expect(lines[0]).toBe(`PAYLINK_SEED ${path} is invalid (5 mistakes; nothing was applied):`);
    expect(lines.slice(1)).toEqual([
      '  integrators.0.email: Invalid email address',
      '  integrators.1.links.1: link three-decimals: amount: PHP allows at most 2 decimal places',
      expect.stringMatching(/^ {2}integrators\.1\.links\.2: link html-logo: logo: the logo must be a PNG, JPEG, WebP or SVG image/),
      expect.stringMatching(/^ {2}integrators\.1\.users\.0: user weak@acme\.example: password /),
      '  integrators.2.links.0: link ok-link: the slug belongs to another integrator',
    ]);
    // Nothing of it was written, not even the steps that were fine.
    expect(await tableCounts(t.app)).toEqual({ integrators: 0, links: 0, assets: 0, cards: 0, vault: 0 });
  });

  it('creates a demo integrator and link on an empty database without a seed, once', async () => {
    t = await createTestApp();
    const first = await applyProvisioning(t.app, undefined);
    expect(first.demo?.linkUrl).toMatch(/\/pay\/demo$/);
    const path = join(t.dataDir, 'demo-credentials.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const creds = JSON.parse(readFileSync(path, 'utf8'));
    expect(await findIntegratorByToken(t.app.db, creds.token)).toMatchObject({ name: 'Demo Store' });
    const second = await applyProvisioning(t.app, undefined);
    expect(second.demo).toBeUndefined();
    expect((await tableCounts(t.app)).integrators).toBe(1);
  });

  describe('a seed and changes made elsewhere', () => {
    const acmeRow = async () => (await t!.app.db.select().from(schema.integrators).where(eq(schema.integrators.email, 'billing@acme.example')))[0]!;
    const withProfile = (profile: Partial<ReturnType<typeof defaultSeed>['integrators'][number]>) => {
      const seed = defaultSeed();
      Object.assign(seed.integrators[0]!, profile);
      return seed;
    };

    it('a value changed through the API survives a restart with the same seed', async () => {
      t = await createTestApp();
      const seed = withProfile({ default_callback_url: 'https://seed.example/hooks', support_email: 'help@seed.example' });
      await provision(t, seed);
      await updateIntegratorSettings(t.app, await acmeRow(), { default_callback_url: 'https://api.example/hooks', support_email: 'care@api.example' });
      await provision(t, seed);
      expect(await acmeRow()).toMatchObject({ defaultCallbackUrl: 'https://api.example/hooks', supportEmail: 'care@api.example' });
    });

    it('a value the seed changes wins over the change made elsewhere', async () => {
      t = await createTestApp();
      await provision(t, withProfile({ default_callback_url: 'https://seed.example/hooks', support_email: 'help@seed.example' }));
      await updateIntegratorSettings(t.app, await acmeRow(), { default_callback_url: 'https://api.example/hooks', support_email: 'care@api.example' });
      await provision(t, withProfile({ default_callback_url: 'https://seed.example/v2', support_email: 'help@seed.example' }));
      // The seed changed the URL, not the support address: only the URL is the seed's again.
      expect(await acmeRow()).toMatchObject({ defaultCallbackUrl: 'https://seed.example/v2', supportEmail: 'care@api.example' });
    });

    it('a field the seed does not name is never touched', async () => {
      t = await createTestApp();
      await provision(t);
      await updateIntegratorSettings(t.app, await acmeRow(), { default_callback_url: 'https://api.example/hooks', support_email: 'care@api.example' });
      const capabilities = { visa: 'full' as const };
      await t.app.db.update(schema.integrators).set({ refundCapabilities: capabilities }).where(eq(schema.integrators.email, 'billing@acme.example'));
      const seed = defaultSeed();
      delete seed.integrators[0]!.refund_capabilities;
      await provision(t, seed);
      expect(await acmeRow()).toMatchObject({
        defaultCallbackUrl: 'https://api.example/hooks',
        supportEmail: 'care@api.example',
        refundCapabilities: capabilities,
      });
      // Named again later, the seed's value applies (it changed since the seed last applied it: it had none).
      await provision(t, withProfile({ support_email: 'help@seed.example', refund_capabilities: { default: 'none' } }));
      expect(await acmeRow()).toMatchObject({
        defaultCallbackUrl: 'https://api.example/hooks',
        supportEmail: 'help@seed.example',
        refundCapabilities: { default: 'none' },
      });
    });

    it('the name and refund capabilities follow the same rule as the other fields', async () => {
      t = await createTestApp();
      await provision(t, withProfile({ refund_capabilities: { default: 'full' } }));
      await t.app.db
        .update(schema.integrators)
        .set({ name: 'Acme (renamed)', refundCapabilities: { default: 'none' } })
        .where(eq(schema.integrators.email, 'billing@acme.example'));
      await provision(t, withProfile({ refund_capabilities: { default: 'full' } }));
      expect(await acmeRow()).toMatchObject({ name: 'Acme (renamed)', refundCapabilities: { default: 'none' } });
      await provision(t, withProfile({ name: 'Acme Books Ltd', refund_capabilities: { default: 'full_partial' } }));
      expect(await acmeRow()).toMatchObject({ name: 'Acme Books Ltd', refundCapabilities: { default: 'full_partial' } });
    });

    it('a console user’s role changed in the console survives a restart; a changed seed role wins', async () => {
      t = await createTestApp();
      await provision(t);
      const staff = eq(schema.consoleUsers.email, CONSOLE_USERS.acmeStaff.email);
      await t.app.db.update(schema.consoleUsers).set({ role: 'owner' }).where(staff);
      await provision(t);
      expect((await t.app.db.select().from(schema.consoleUsers).where(staff))[0]!.role).toBe('owner');
      const seed = defaultSeed();
      seed.integrators[0]!.users[1]!.role = 'owner';
      await provision(t, seed);
      await t.app.db.update(schema.consoleUsers).set({ role: 'staff' }).where(staff);
      seed.integrators[0]!.users[1]!.role = 'staff';
      await provision(t, seed);
      seed.integrators[0]!.users[1]!.role = 'owner';
      await provision(t, seed);
      expect((await t.app.db.select().from(schema.consoleUsers).where(staff))[0]!.role).toBe('owner');
    });

    it('an event with no callback destination is recorded as such, and the callback worker says so once per integrator', async () => {
      t = await createTestApp();
      await provision(t, withProfile({ default_callback_url: 'https://seed.example/hooks' }));
      await updateIntegratorSettings(t.app, await acmeRow(), { default_callback_url: null });
      await provision(t, withProfile({ default_callback_url: 'https://seed.example/hooks' }));
      const acme = await acmeRow();
      expect(acme.defaultCallbackUrl).toBeNull();
      const warnings = () => t!.logs.filter((line) => line.includes('no default callback URL')).map((line) => JSON.parse(line).integrator_id);
      // Cleared through the API: said once, when it happens.
      expect(warnings()).toEqual([acme.id]);
      t.logs.length = 0;
      const charge = await sandboxOf(t.app).acquirer.charge(
        { source: { card: { number: '4242424242424242', ...CARD_EXP, cvc: '123' } }, amountMinor: 100n, currency: 'PHP' },
        { idempotencyKey: 'no-destination' },
      );
      await t.app.db.transaction((tx) =>
        recordCharge(t!.app, tx, {
          integratorId: acme.id,
          result: charge,
          amountMinor: 100n,
          currency: 'PHP',
          idempotencyKey: 'no-destination',
          now: t!.app.now(),
        }),
      );
      const [event] = await t.app.db.select().from(schema.outboxEvents).where(eq(schema.outboxEvents.integratorId, acme.id));
      expect(event).toMatchObject({ type: 'payment.succeeded', callbackUrl: null, callbackState: 'no_destination' });
      const loop = startCallbackLoop(t.app, t.app.log);
      try {
        await expect
          .poll(warnings)
          .toEqual([acme.id, (await t.app.db.select().from(schema.integrators).where(eq(schema.integrators.email, 'ops@other.example')))[0]!.id].sort());
      } finally {
        await loop.stop();
      }
    });
  });
});
