import { afterAll, beforeAll } from 'vitest';
import { integratorAcquirers } from '../../src/db/schema.ts';
import { createTestApp, defaultSeed, provision, startTestServer, type TestApp } from './app.ts';
import { type FakePaymongo, startFakePaymongo } from './fakes/paymongo.ts';
import { type FakeStripe, startFakeStripe } from './fakes/stripe.ts';

type Fakes = { stripe: FakeStripe; paymongo: FakePaymongo };

type SeedAcquirer = NonNullable<ReturnType<typeof defaultSeed>['integrators'][number]['acquirer']>;

/** A seed file's `acquirer` for an integrator on a provider's fake: its keys and address. */
export function acquirerSeed<P extends keyof Fakes>(provider: P, fake: Fakes[P]): Extract<SeedAcquirer, { provider: P }> {
  return {
    provider,
    public_key: 'publishableKey' in fake ? fake.publishableKey : (fake as FakePaymongo).publicKey,
    secret_key: fake.secretKey,
    webhook_secret: fake.webhookSecret,
    api_base_url: fake.url,
  } as Extract<SeedAcquirer, { provider: P }>;
}

/**
 * For a connector test file: the provider's fake on a local port, and a served app whose seed puts
 * one integrator (`integrator`: its index in the default seed) on that provider with the fake's
 * keys. Started before the file's tests (before the file's own `beforeAll`), closed after them.
 */
export function useProviderApp<P extends keyof Fakes>(provider: P, opts: { integrator: number; now?: () => Date }) {
  const state = {} as { fake: Fakes[P]; t: TestApp; server: { url: string; close(): Promise<void> }; webhookPath: string };
  beforeAll(async () => {
    const fake = (provider === 'stripe' ? await startFakeStripe() : await startFakePaymongo()) as Fakes[P];
    state.fake = fake;
    state.t = await createTestApp(opts.now ? { now: opts.now } : {});
    const seed = defaultSeed();
    seed.integrators[opts.integrator]!.acquirer = acquirerSeed(provider, fake);
    await provision(state.t, seed);
    state.server = await startTestServer(state.t.app);
    const [row] = await state.t.app.db.select().from(integratorAcquirers);
    state.webhookPath = `/webhooks/${provider}/${row!.webhookId}`;
  });
  afterAll(async () => {
    await state.server?.close();
    await state.t?.close();
    await state.fake?.close();
  });
  return state;
}
