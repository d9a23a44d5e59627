import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integratorAcquirers, integrators } from '../../../src/db/schema.ts';
import { findIntegratorByToken, hashToken } from '../../../src/domain/integrators/service.ts';
import type { OperatorIdentity } from '../../../src/domain/operators/accounts.ts';
import { createIntegrator, rotateCredentials, setIntegratorAcquirer, setLinkFieldModes } from '../../../src/domain/operators/integrators.ts';
import type { Seed } from '../../../src/schemas/provisioning.ts';
import { createTestApp, defaultSeed, provision, TEST_TOKEN, type TestApp } from '../../support/app.ts';

/**
 * The seed file and the operator console never fight (docs/operator.md): a re-applied seed sets a
 * value only when the seed's own value changed since it last applied it, so what support changed
 * in the console survives restarts with the same seed; a changed seed value wins again.
 */
let t: TestApp;
const identity: OperatorIdentity = { sessionId: 'ops_test', operator: { id: 'opr_test', email: 'support@paylink.example', totpEnabledAt: null } };
const from = { ip: null, userAgent: 'operator-seed-test' };
const paymongo = {
  provider: 'paymongo' as const,
  public_key: 'pk_test_seedkey12345',
  secret_key: 'sk_test_seedsecret12345',
  webhook_secret: 'whsk_seedhook12345',
};

function seedWith(extra: Partial<Seed['integrators'][number]>): Seed {
  const seed = defaultSeed();
  seed.integrators[0] = { ...seed.integrators[0]!, ...extra };
  return seed;
}
const acme = async () => (await t.app.db.select().from(integrators).where(eq(integrators.email, 'billing@acme.example')))[0]!;
const acquirerOf = async (id: string) => (await t.app.db.select().from(integratorAcquirers).where(eq(integratorAcquirers.integratorId, id)))[0];

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('operator › seed and console', () => {
  it('field modes: the operator’s change survives the same seed; a changed seed value applies', async () => {
    await provision(t, seedWith({ link_field_modes: { 'payment.merchant_reference_id': 'system' } }));
    expect((await acme()).linkFieldModes).toEqual({ 'payment.merchant_reference_id': 'system' });
    await setLinkFieldModes(t.app, identity, (await acme()).id, { 'customer.contact.mobile': 'customer' }, from);
    await provision(t, seedWith({ link_field_modes: { 'payment.merchant_reference_id': 'system' } }));
    expect((await acme()).linkFieldModes).toEqual({ 'customer.contact.mobile': 'customer' });
    // A seed that leaves them out leaves them alone.
    await provision(t, defaultSeed());
    expect((await acme()).linkFieldModes).toEqual({ 'customer.contact.mobile': 'customer' });
    await provision(t, seedWith({ link_field_modes: { 'payment.description': 'system' } }));
    expect((await acme()).linkFieldModes).toEqual({ 'payment.description': 'system' });
  });

  it('acquirer: the operator’s change survives the same seed block; a changed block applies, api_base_url included', async () => {
    await provision(t, seedWith({ acquirer: { ...paymongo, api_base_url: 'http://127.0.0.1:9/seeded' } }));
    const id = (await acme()).id;
    expect(await acquirerOf(id)).toMatchObject({ provider: 'paymongo', apiBaseUrl: 'http://127.0.0.1:9/seeded' });
    await setIntegratorAcquirer(t.app, identity, id, { ...paymongo, public_key: 'pk_test_operatorkey999', api_base_url: 'http://127.0.0.1:9/operator' }, from);
    await provision(t, seedWith({ acquirer: { ...paymongo, api_base_url: 'http://127.0.0.1:9/seeded' } }));
    expect(await acquirerOf(id)).toMatchObject({ publicKey: 'pk_test_operatorkey999', apiBaseUrl: 'http://127.0.0.1:9/operator' });
    await provision(t, seedWith({ acquirer: { ...paymongo, api_base_url: 'http://127.0.0.1:9/seeded-again' } }));
    expect(await acquirerOf(id)).toMatchObject({ publicKey: paymongo.public_key, apiBaseUrl: 'http://127.0.0.1:9/seeded-again' });
    await provision(t, seedWith({ acquirer: { provider: 'sandbox' } }));
  });

  it('credentials: an operator rotation survives the same seed; the seed’s token then no longer opens the API', async () => {
    const id = (await acme()).id;
    const rotated = await rotateCredentials(t.app, identity, id, 'none', from);
    await provision(t, defaultSeed());
    expect((await acme()).tokenHash).toBe(hashToken(rotated.token));
    expect(await findIntegratorByToken(t.app.db, TEST_TOKEN)).toBeUndefined();
    // A new token in the seed is applied.
    const seed = seedWith({ token: 'test_token_acme_after_rotation_0123456789' });
    await provision(t, seed);
    expect((await acme()).tokenHash).toBe(hashToken('test_token_acme_after_rotation_0123456789'));
  });

  it('an integrator the operator made is left alone by a seed that does not name it, and taken over by one that names its e-mail', async () => {
    const made = await createIntegrator(t.app, identity, { name: 'Console Made', email: 'made@console.example', owner_email: 'owner@console.example' }, from);
    await provision(t, defaultSeed());
    const [kept] = await t.app.db.select().from(integrators).where(eq(integrators.id, made.integrator.id));
    expect(kept).toMatchObject({ name: 'Console Made', tokenHash: hashToken(made.credentials.token) });
    const seed = defaultSeed();
    seed.integrators.push({
      name: 'Seed Named',
      email: 'made@console.example',
      token: 'test_token_seed_takes_over_0123456789abcd',
      secret: 'test_secret_seed_takes_over_0123456789abc',
      refund_capabilities: {},
      links: [],
      cards: [],
      users: [],
    });
    await provision(t, seed);
    const [taken] = await t.app.db.select().from(integrators).where(eq(integrators.id, made.integrator.id));
    expect(taken).toMatchObject({ name: 'Seed Named', tokenHash: hashToken('test_token_seed_takes_over_0123456789abcd') });
  });
});
