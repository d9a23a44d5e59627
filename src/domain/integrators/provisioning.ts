import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { newId, sha256Hex } from '../../crypto.ts';
import type { DbOrTx } from '../../db/client.ts';
import { cardRegistrations, integrators, links } from '../../db/schema.ts';
import { parseExpiry } from '../../schemas/card-rules.ts';
import { linkWireField } from '../../schemas/link.ts';
import type { SeedIntegrator, SeedLink } from '../../schemas/provisioning.ts';
import { generatePassword } from '../accounts/passwords.ts';
import { upsertSeedUser } from '../accounts/seed.ts';
import { activeCardColumns } from '../cards/activation.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, withFieldNames } from '../errors.ts';
import { linkValues, writeSeedLink } from '../links/editor.ts';
import { methodsMisfit } from '../links/payment-methods.ts';
import { type DemoOperator, demoOperator } from '../operators/accounts.ts';
import { readAcquirerSettings, setAcquirer } from './acquirer.ts';
import { type GeneratedSecrets, keepGeneratedSecrets, writeSecretFile } from './generated-secrets.ts';
import { existingProvisioning } from './holdings.ts';
import { applySeedLinkKey, newLinkKey } from './link-keys.ts';
import { ProvisioningError, readSeed } from './seed-file.ts';
import { hashToken } from './service.ts';

/**
 * Applies PAYLINK_SEED at every start: creates or updates integrators (by e-mail), links (by
 * slug) and sandbox cards (by reference). Never duplicates, never deletes, never touches
 * payments. With no seed and no integrator at all, creates a demo integrator and link.
 */
export { ProvisioningError } from './seed-file.ts';

export interface ProvisioningResult {
  integrators: number;
  links: number;
  cards: number;
  demo?: { path: string; linkUrl: string; credentials: DemoCredentials };
  /** The demo link exists from an earlier start (its credentials were written then). */
  demoKept?: boolean;
  /**
   * Webhook secrets generated this run (integrators whose seed gives none), by integrator e-mail.
   * Written to PAYLINK_GENERATED_SECRETS_FILE (0600) when it is set, else the start prints them once;
   * never into a data directory, which on PostgreSQL is whichever process applied the seed first.
   */
  generatedSecrets?: GeneratedSecrets;
}

export interface DemoCredentials extends Partial<DemoOperator> {
  integrator: string;
  email: string;
  /** The publishable link key: the dynamic link's `key` (creates checkouts, nothing else). */
  link_key: string;
  /** The secret API token (every /api/v1 call; also taken as a dynamic link's `key`). */
  token: string;
  secret: string;
  webhook_secret: string;
  link: string;
  link_url: string;
  /** The demo owner's console sign-in. */
  console_url: string;
  console_email: string;
  console_password: string;
}

export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
/** Fingerprint of a seed's webhook_secret (≥ 24 random bytes, so a plain hash reveals nothing). */
const webhookSeedHash = (secret: string) => sha256Hex(`paylink-webhook-seed:${secret}`);

/** Fingerprints of the seed's API token and JWT secret (long random strings, so a plain hash reveals nothing). */
const tokenSeedSha256 = (token: string) => sha256Hex(`paylink-token-seed:${token}`);
const secretSeedSha256 = (secret: string) => sha256Hex(`paylink-jwt-secret-seed:${secret}`);

/**
 * The profile fields a seed may name, each with its column. A re-applied seed sets a field only
 * when the seed's own value for it changed since the seed last applied it (a fingerprint per field
 * is kept in `seed_fields`), and never touches a field the seed leaves out: a change made through
 * PATCH /api/v1/integrator or the console survives restarts with the same seed.
 */
const seedProfileFields = {
  name: (seed: SeedIntegrator) => ({ name: seed.name }),
  support_email: (seed: SeedIntegrator) => (seed.support_email === undefined ? undefined : { supportEmail: seed.support_email }),
  default_callback_url: (seed: SeedIntegrator) => (seed.default_callback_url === undefined ? undefined : { defaultCallbackUrl: seed.default_callback_url }),
  refund_capabilities: (seed: SeedIntegrator) => (seed.refund_capabilities === undefined ? undefined : { refundCapabilities: seed.refund_capabilities }),
  default_payment_methods: (seed: SeedIntegrator) =>
    seed.default_payment_methods === undefined ? undefined : { defaultPaymentMethods: seed.default_payment_methods },
  link_field_modes: (seed: SeedIntegrator) => (seed.link_field_modes === undefined ? undefined : { linkFieldModes: seed.link_field_modes }),
} satisfies Record<string, (seed: SeedIntegrator) => Partial<typeof integrators.$inferInsert> | undefined>;

const seedFieldHash = (field: string, value: unknown) => sha256Hex(`paylink-seed-field:${field}:${JSON.stringify(value)}`);

/** The columns a seed sets on an integrator and the fingerprints to keep (`previous`: what is kept now). */
function seedProfile(seed: SeedIntegrator, previous: Record<string, string> | undefined) {
  const values: Partial<typeof integrators.$inferInsert> = {};
  const seedFields: Record<string, string> = {};
  for (const [field, columnsOf] of Object.entries(seedProfileFields)) {
    const value = columnsOf(seed);
    // Left out of the seed: untouched, and no fingerprint, so naming it again later applies it.
    if (value === undefined) continue;
    const hash = seedFieldHash(field, Object.values(value)[0]);
    seedFields[field] = hash;
    if (previous?.[field] !== hash) Object.assign(values, value);
  }
  return { values, seedFields };
}

async function upsertIntegrator(app: DomainContext, tx: DbOrTx, seed: SeedIntegrator, generated: Record<string, string>): Promise<string> {
  const [existing] = await tx.select().from(integrators).where(eq(integrators.email, seed.email));
  const profile = seedProfile(seed, existing?.seedFields);
  const values = { ...profile.values, seedFields: profile.seedFields, updatedAt: app.now() };
  if (existing) {
    const update: Partial<typeof integrators.$inferInsert> = { ...values };
    // The token and JWT secret, like the webhook secret below, are set only when the seed's value
    // changed since it was last applied: a rotation made in the console survives restarts.
    const tokenSeedHash = tokenSeedSha256(seed.token);
    if (existing.tokenSeedSha256 !== tokenSeedHash && existing.tokenHash !== hashToken(seed.token)) {
      update.tokenHash = hashToken(seed.token);
      update.previousTokenHash = null;
      update.previousTokenValidUntil = null;
    }
    update.tokenSeedSha256 = tokenSeedHash;
    const secretSeedHash = secretSeedSha256(seed.secret);
    if (existing.secretSeedSha256 !== secretSeedHash && app.secrets.open(existing.secretEnc) !== seed.secret) {
      update.secretEnc = app.secrets.seal(seed.secret);
      update.previousSecretEnc = null;
      update.previousSecretValidUntil = null;
    }
    update.secretSeedSha256 = secretSeedHash;
    if (seed.webhook_secret) {
      // Rotate only when the seed's secret changed since it was last applied: a rotation made
      // through POST /api/v1/webhook-secret/rotate survives restarts with the same seed.
      const seedHash = webhookSeedHash(seed.webhook_secret);
      if (existing.webhookSecretSeedSha256 !== seedHash && app.secrets.open(existing.webhookSecretEnc) !== seed.webhook_secret) {
        update.previousWebhookSecretEnc = existing.webhookSecretEnc;
        update.webhookSecretRotatedAt = app.now();
        update.webhookSecretEnc = app.secrets.seal(seed.webhook_secret);
      }
      update.webhookSecretSeedSha256 = seedHash;
    }
    await tx.update(integrators).set(update).where(eq(integrators.id, existing.id));
    return existing.id;
  }
  const webhookSecret = seed.webhook_secret ?? newWebhookSecret();
  if (!seed.webhook_secret) generated[seed.email] = webhookSecret;
  const id = newId('int');
  await tx.insert(integrators).values({
    id,
    email: seed.email,
    name: seed.name,
    ...values,
    tokenHash: hashToken(seed.token),
    tokenSeedSha256: tokenSeedSha256(seed.token),
    secretEnc: app.secrets.seal(seed.secret),
    secretSeedSha256: secretSeedSha256(seed.secret),
    webhookSecretEnc: app.secrets.seal(webhookSecret),
    webhookSecretSeedSha256: seed.webhook_secret ? webhookSeedHash(seed.webhook_secret) : null,
  });
  return id;
}

/**
 * A seed's link goes through the links' own service (src/domain/links/editor.ts). It is applied
 * when it is new, or when its seed entry changed since it was last applied: an unchanged seed
 * leaves alone a link edited through the API since (docs/provisioning.md).
 */
async function upsertLink(app: DomainContext, tx: DbOrTx, integratorId: string, link: SeedLink, baseDir: string): Promise<void> {
  const where = `link ${link.slug}:`;
  const seedSha256 = sha256Hex(`paylink-link-seed:${JSON.stringify(link)}`);
  const [existing] = await tx.select().from(links).where(eq(links.slug, link.slug));
  if (existing && existing.integratorId !== integratorId) throw new ProvisioningError(`${where} the slug belongs to another integrator`);
  if (existing?.seedSha256 === seedSha256) return;
  let values: Awaited<ReturnType<typeof linkValues>>;
  try {
    values = await linkValues(
      app,
      tx,
      integratorId,
      {
        title: link.title,
        description: link.description ?? null,
        currency: link.currency,
        amount: link.amount ?? null,
        minAmount: link.min_amount ?? null,
        maxAmount: link.max_amount ?? null,
        brandColor: link.brand_color ?? null,
        logo: link.logo ? { source: link.logo, baseDir } : null,
        labels: link.labels,
        fields: link.fields,
        callbackUrl: link.callback_url ?? null,
        active: link.active,
        expiresAt: link.expires_at ?? null,
        maxPayments: link.max_payments ?? null,
        successUrl: link.success_url ?? null,
        cancelUrl: link.cancel_url ?? null,
        paymentMethods: link.payment_methods ?? null,
        subscription: link.subscription ?? null,
        locale: link.locale ?? null,
        questions: link.questions ?? [],
        // A seed says all there is: an item without `image` has none.
        items: (link.items ?? []).map((item) => ({ ...item, image: item.image ?? null })),
        imageDir: baseDir,
        tip: link.tip ?? null,
        promotionCodes: link.promotion_codes ?? false,
      },
      // The integrator's acquirer as this seed left it, read in the seed's own transaction.
      app.connectors.forSettings(integratorId, await readAcquirerSettings(tx, app.secrets, integratorId)),
      existing,
    );
  } catch (caught) {
    // The seed file names a link's settings as the API does (`min_amount`).
    const error = withFieldNames(caught, linkWireField);
    if (!(error instanceof DomainError) || typeof error.messages !== 'object') throw error;
    throw new ProvisioningError(
      `${where} ${Object.entries(error.messages)
        .map(([field, list]) => `${field}: ${list.join('; ')}`)
        .join('; ')}`,
    );
  }
  await writeSeedLink(tx, { integratorId, slug: link.slug, existing }, { ...values, seedSha256 });
}

async function upsertCard(app: DomainContext, integratorId: string, card: SeedIntegrator['cards'][number]): Promise<void> {
  const [existing] = await app.db.select().from(cardRegistrations).where(eq(cardRegistrations.reference, card.reference));
  if (existing) {
    if (existing.integratorId !== integratorId) throw new ProvisioningError(`card ${card.reference}: the reference belongs to another integrator`);
    return; // a registration is immutable once made; delete it through the API to replace it
  }
  const expiry = parseExpiry(card.expiry);
  if (!expiry) throw new ProvisioningError(`card ${card.reference}: expiry must be MM/YY`);
  // The acquirer call happens outside any transaction; its idempotency key makes a retry safe.
  // Seed cards are sandbox cards (docs/provisioning.md), whichever acquirer the integrator uses.
  const { vault } = app.connectors.forSettings(integratorId, { provider: 'sandbox' });
  if (!vault) throw new ProvisioningError(`card ${card.reference}: the sandbox keeps no cards`);
  const verified = await vault.verifyCard(
    { number: card.number, expMonth: expiry.month, expYear: expiry.year, holderName: card.holder },
    { idempotencyKey: `seed-card:${card.reference}` },
  );
  if (verified.status !== 'verified') throw new ProvisioningError(`card ${card.reference}: the sandbox declined it (${verified.code})`);
  await app.db
    .insert(cardRegistrations)
    .values({ reference: card.reference, integratorId, ...activeCardColumns(verified, card.holder, app.now()) })
    .onConflictDoNothing();
}

/** The seed's acquirer settings, through the console's own rules; a refusal is a seed mistake, said in one line. */
async function setSeedAcquirer(app: DomainContext, tx: DbOrTx, integratorId: string, integrator: SeedIntegrator): Promise<void> {
  if (!integrator.acquirer) return;
  try {
    await setAcquirer(app, tx, integratorId, integrator.acquirer, { fromSeed: true });
  } catch (error) {
    if (!(error instanceof DomainError) || typeof error.messages !== 'object') throw error;
    throw new ProvisioningError(
      `integrator ${integrator.name}: ${Object.entries(error.messages)
        .map(([field, list]) => `${field}: ${list.join('; ')}`)
        .join('; ')}`,
    );
  }
}

export async function applyProvisioning(app: DomainContext, seedPath = app.config.seedPath): Promise<ProvisioningResult> {
  if (seedPath) {
    const { entries, problems } = readSeed(seedPath);
    const baseDir = dirname(resolve(seedPath));
    const generated: Record<string, string> = {};
    const ids = new Map<SeedIntegrator, string>();
    let generatedSecrets: ProvisioningResult['generatedSecrets'];
    // One transaction per apply; advisory lock so two processes starting together don't race.
    // Each step runs in a savepoint: a mistake is noted and the apply goes on, so one start lists
    // every mistake (with its path in the file); then nothing is applied.
    await app.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(7450231002)`);
      for (const { index, integrator } of entries) {
        const at = `integrators.${index}`;
        const id = await problems.step(tx, at, (sp) => upsertIntegrator(app, sp, integrator, generated));
        if (id === undefined) continue;
        ids.set(integrator, id);
        await problems.step(tx, `${at}.link_key`, (sp) => applySeedLinkKey(app, sp, id, integrator.link_key));
        if (integrator.acquirer) await problems.step(tx, `${at}.acquirer`, (sp) => setSeedAcquirer(app, sp, id, integrator));
        if (integrator.default_payment_methods) {
          const misfit = methodsMisfit(app.connectors.forSettings(id, await readAcquirerSettings(tx, app.secrets, id)), integrator.default_payment_methods);
          if (misfit) problems.add(`${at}.default_payment_methods`, misfit);
        }
        for (const [j, link] of integrator.links.entries()) await problems.step(tx, `${at}.links.${j}`, (sp) => upsertLink(app, sp, id, link, baseDir));
        for (const [j, user] of integrator.users.entries()) await problems.step(tx, `${at}.users.${j}`, (sp) => upsertSeedUser(app, sp, id, user));
      }
      problems.throwIfAny(seedPath, 'nothing was applied');
      // Before the commit: a file that cannot be written undoes the apply, so no secret is kept that nobody saw.
      if (Object.keys(generated).length > 0) generatedSecrets = keepGeneratedSecrets(app.config.generatedSecretsFile, generated);
    });
    app.linkCache.changed();
    app.tokenCache.changed();
    for (const id of ids.values()) app.connectors.forget(id);
    let cards = 0;
    for (const { index, integrator } of entries) {
      for (const [j, card] of integrator.cards.entries()) {
        try {
          await upsertCard(app, ids.get(integrator)!, card);
          cards++;
        } catch (error) {
          if (!(error instanceof ProvisioningError)) throw error;
          problems.add(`integrators.${index}.cards.${j}`, error.message);
        }
      }
    }
    problems.throwIfAny(seedPath, 'the rest of the seed was applied');
    const seed = { integrators: entries.map((e) => e.integrator) };
    const result: ProvisioningResult = {
      integrators: seed.integrators.length,
      links: seed.integrators.reduce((n, i) => n + i.links.length, 0),
      cards,
    };
    if (generatedSecrets) result.generatedSecrets = generatedSecrets;
    return result;
  }
  return createDemoIfEmpty(app);
}

async function createDemoIfEmpty(app: DomainContext): Promise<ProvisioningResult> {
  const credentials = await app.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7450231002)`);
    const [any] = await tx.select({ id: integrators.id }).from(integrators).limit(1);
    if (any) return undefined;
    const token = `pl_test_${randomBytes(24).toString('base64url')}`;
    const linkKey = newLinkKey();
    const secret = randomBytes(32).toString('base64url');
    const webhookSecret = newWebhookSecret();
    const id = await upsertIntegrator(
      app,
      tx,
      {
        name: 'Demo Store',
        email: 'demo@paylink.localhost',
        token,
        secret,
        webhook_secret: webhookSecret,
        link_key: linkKey,
        refund_capabilities: {},
        links: [],
        cards: [],
        users: [],
      },
      {},
    );
    await applySeedLinkKey(app, tx, id, linkKey);
    await upsertLink(
      app,
      tx,
      id,
      {
        slug: 'demo',
        title: 'Demo Store',
        description: 'A demo payment link: pay with test card 4242 4242 4242 4242.',
        currency: 'PHP',
        amount: '250.00',
        labels: {},
        fields: {},
        active: true,
      },
      '.',
    );
    const consolePassword = generatePassword();
    await upsertSeedUser(app, tx, id, { email: 'owner@paylink.localhost', password: consolePassword, role: 'owner' });
    return {
      integrator: 'Demo Store',
      email: 'demo@paylink.localhost',
      link_key: linkKey,
      token,
      secret,
      webhook_secret: webhookSecret,
      link: 'demo',
      link_url: `${app.origin()}/pay/demo`,
      console_url: `${app.origin()}/console`,
      console_email: 'owner@paylink.localhost',
      console_password: consolePassword,
    } satisfies DemoCredentials;
  });
  if (!credentials) return existingProvisioning(app);
  Object.assign(credentials, await demoOperator(app)); // the demo's operator sign-in, when there is no operator yet
  const path = join(app.config.dataDir, 'demo-credentials.json');
  writeSecretFile(path, credentials);
  return { integrators: 1, links: 1, cards: 0, demo: { path, linkUrl: credentials.link_url, credentials } };
}
