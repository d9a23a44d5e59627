import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymongoConnector } from '../../../src/acquirer/paymongo/connector.ts';
import { integratorAcquirers, integrators } from '../../../src/db/schema.ts';
import { acquirerView, setAcquirer } from '../../../src/domain/integrators/acquirer.ts';
import { ProvisioningError } from '../../../src/domain/integrators/provisioning.ts';
import { createTestApp, defaultSeed, provision, type TestApp } from '../../support/app.ts';

/** Per-integrator acquirer settings: from the seed, sealed at rest, resolved by the registry. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const paymongo = {
  provider: 'paymongo' as const,
  public_key: 'pk_test_abcdefgh12345678',
  secret_key: 'sk_test_secretvalue12345678',
  webhook_secret: 'whsk_webhooksecret12345678',
  api_base_url: 'http://127.0.0.1:9/',
};

const idOf = async (name: string) => (await t.app.db.select().from(integrators).where(eq(integrators.name, name)))[0]!.id;

describe('acquirer settings', () => {
  it('an integrator without settings takes payments through the sandbox', async () => {
    await provision(t);
    expect((await t.app.connectors.forIntegrator(await idOf('Acme Books'))).name).toBe('sandbox');
  });

  it('the seed sets PayMongo for one integrator: its connector uses the keys, the others stay on the sandbox', async () => {
    const seed = defaultSeed();
    seed.integrators[0]!.acquirer = paymongo;
    await provision(t, seed);
    const acme = await idOf('Acme Books');
    const connector = await t.app.connectors.forIntegrator(acme);
    expect(connector).toBeInstanceOf(PaymongoConnector);
    expect((connector as PaymongoConnector).publicKey).toBe(paymongo.public_key);
    expect((connector as PaymongoConnector).apiBaseUrl).toBe('http://127.0.0.1:9');
    expect((await t.app.connectors.forIntegrator(await idOf('Other Shop'))).name).toBe('sandbox');
  });

  it('keeps the secret key and webhook secret sealed at rest, and the console sees them masked', async () => {
    const acme = await idOf('Acme Books');
    const [row] = await t.app.db.select().from(integratorAcquirers).where(eq(integratorAcquirers.integratorId, acme));
    expect(JSON.stringify(row)).not.toContain(paymongo.secret_key);
    expect(JSON.stringify(row)).not.toContain(paymongo.webhook_secret);
    const view = await acquirerView(t.app, acme);
    expect(view).toMatchObject({ provider: 'paymongo', publicKey: paymongo.public_key, secretKeyHint: '…5678', webhookSecretSet: true });
    expect(view.webhookPath).toMatch(/^\/webhooks\/paymongo\/wh_[a-f0-9]{32}$/);
    expect(JSON.stringify(view)).not.toContain(paymongo.secret_key);
  });

  it('a re-applied seed does not undo a console change; a changed seed block does', async () => {
    const acme = await idOf('Acme Books');
    const actor = { integratorId: acme, userId: null, email: 'owner@acme.example', ip: null, userAgent: null };
    await t.app.db.transaction((tx) => setAcquirer(t.app, tx, acme, { provider: 'sandbox' }, { actor }));
    const seed = defaultSeed();
    seed.integrators[0]!.acquirer = paymongo;
    await provision(t, seed);
    expect((await t.app.connectors.forIntegrator(acme)).name).toBe('sandbox');
    seed.integrators[0]!.acquirer = { ...paymongo, secret_key: 'sk_test_another12345678' };
    await provision(t, seed);
    expect((await t.app.connectors.forIntegrator(acme)).name).toBe('paymongo');
  });

  it('refuses keys of mixed modes and keys of the wrong shape', async () => {
    const seed = defaultSeed();
    seed.integrators[0]!.acquirer = { ...paymongo, secret_key: 'sk_live_secretvalue12345678' };
    await expect(provision(t, seed)).rejects.toThrow(ProvisioningError);
    seed.integrators[0]!.acquirer = { ...paymongo, public_key: 'not-a-key' };
    await expect(provision(t, seed)).rejects.toThrow(/PayMongo public key/);
  });
});
