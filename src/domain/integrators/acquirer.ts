import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AcquirerProvider, AcquirerSettings } from '../../acquirer/registry.ts';
import type { Sealer } from '../../crypto.ts';
import type { DbOrTx } from '../../db/client.ts';
import { type IntegratorAcquirer, integratorAcquirers } from '../../db/schema.ts';
import { type AcquirerInput, acquirerInputSchema, defaultApiBaseUrls, qrExpirySecondsSchema } from '../../schemas/acquirer.ts';
import { parseWith } from '../../schemas/parse.ts';
import { type Actor, recordAudit } from '../accounts/audit.ts';
import type { DomainContext } from '../context.ts';
import { invalidFields } from '../errors.ts';

/**
 * Which acquirer an integrator takes payments through, and its keys (docs/acquirers.md). The
 * secret key and the provider's webhook secret are sealed at rest like the integrator's other
 * secrets; the public key is stored as is (the customer's browser receives it). The API base URL
 * is the provider's own unless the operator's seed names another (tests: the in-repo fakes).
 */

/** The settings the registry builds a connector from; the sandbox when the integrator has none. */
export async function readAcquirerSettings(db: DbOrTx, secrets: Sealer, integratorId: string): Promise<AcquirerSettings> {
  const [row] = await db.select().from(integratorAcquirers).where(eq(integratorAcquirers.integratorId, integratorId));
  return settingsOf(row, secrets);
}

export function settingsOf(row: IntegratorAcquirer | undefined, secrets: Sealer): AcquirerSettings {
  if (!row || row.provider === 'sandbox' || !row.secretKeyEnc || !row.webhookSecretEnc || !row.publicKey) return { provider: 'sandbox' };
  return {
    provider: row.provider,
    secretKey: secrets.open(row.secretKeyEnc),
    publicKey: row.publicKey,
    webhookSecret: secrets.open(row.webhookSecretEnc),
    apiBaseUrl: row.apiBaseUrl ?? defaultApiBaseUrls[row.provider],
    hostedCheckout: row.hostedCheckout,
  };
}

/** The integrator named by a provider webhook address, with its settings. */
export async function acquirerByWebhookId(app: DomainContext, provider: string, webhookId: string) {
  const [row] = await app.db.select().from(integratorAcquirers).where(eq(integratorAcquirers.webhookId, webhookId));
  if (!row || row.provider !== provider) return undefined;
  return { integratorId: row.integratorId, settings: settingsOf(row, app.secrets) };
}

/** What the console shows: secrets never, only whether they are set and the key's last characters. */
export interface AcquirerView {
  provider: AcquirerProvider;
  publicKey: string | null;
  secretKeyHint: string | null;
  webhookSecretSet: boolean;
  apiBaseUrl: string | null;
  /** The address to register at the provider for webhooks (null for the sandbox). */
  webhookPath: string | null;
  /** Customers pay on the provider's own page. */
  hostedCheckout: boolean;
  /** How long a QR Ph code lives, in seconds; null: PayMongo's 30 minutes. */
  qrExpirySeconds: number | null;
}

export async function acquirerView(app: DomainContext, integratorId: string): Promise<AcquirerView> {
  const [row] = await app.db.select().from(integratorAcquirers).where(eq(integratorAcquirers.integratorId, integratorId));
  if (!row || row.provider === 'sandbox')
    return {
      provider: 'sandbox',
      publicKey: null,
      secretKeyHint: null,
      webhookSecretSet: false,
      apiBaseUrl: null,
      webhookPath: null,
      hostedCheckout: false,
      qrExpirySeconds: row?.qrExpirySeconds ?? null,
    };
  const secret = row.secretKeyEnc ? app.secrets.open(row.secretKeyEnc) : null;
  return {
    provider: row.provider,
    publicKey: row.publicKey,
    secretKeyHint: secret ? `…${secret.slice(-4)}` : null,
    webhookSecretSet: row.webhookSecretEnc !== null,
    apiBaseUrl: row.apiBaseUrl ?? defaultApiBaseUrls[row.provider],
    webhookPath: `/webhooks/${row.provider}/${row.webhookId}`,
    hostedCheckout: row.hostedCheckout,
    qrExpirySeconds: row.qrExpirySeconds,
  };
}

/** How long the integrator's QR Ph codes live, in seconds, when it chose (checkout passes it to the acquirer); undefined: the acquirer's default. */
export async function qrExpirySecondsOf(db: DbOrTx, integratorId: string): Promise<number | undefined> {
  const [row] = await db
    .select({ seconds: integratorAcquirers.qrExpirySeconds })
    .from(integratorAcquirers)
    .where(eq(integratorAcquirers.integratorId, integratorId));
  return row?.seconds ?? undefined;
}

const seedHash = (input: AcquirerInput) => createHash('sha256').update(JSON.stringify(input)).digest('hex');

/**
 * Sets an integrator's acquirer (seed or console). A console change is audited in the same
 * transaction; a re-applied seed whose block did not change leaves a console change in place.
 * `apiBaseUrl` comes only from the seed and the operator console: the merchant's console cannot point keys elsewhere.
 */
export async function setAcquirer(
  app: Pick<DomainContext, 'secrets' | 'now' | 'config'>,
  tx: DbOrTx,
  integratorId: string,
  input: AcquirerInput,
  /** `setsApiBaseUrl`: the operator console, which may point keys at another API origin as the seed does. */
  opts: { actor?: Actor; fromSeed?: boolean; setsApiBaseUrl?: boolean } = {},
): Promise<void> {
  const [existing] = await tx.select().from(integratorAcquirers).where(eq(integratorAcquirers.integratorId, integratorId)).for('update');
  const hash = opts.fromSeed ? seedHash(input) : undefined;
  if (opts.fromSeed && existing?.seedSha256 === hash) return;
  if (input.provider !== 'sandbox' && input.api_base_url) {
    const url = new URL(input.api_base_url);
    if (url.protocol !== 'https:' && !app.config.allowPrivateCallbacks) throw invalidFields({ 'acquirer.api_base_url': ['must be an https:// address'] });
  }
  const values =
    input.provider === 'sandbox'
      ? { provider: 'sandbox' as const, publicKey: null, secretKeyEnc: null, webhookSecretEnc: null, apiBaseUrl: null, hostedCheckout: false }
      : {
          provider: input.provider,
          publicKey: input.public_key,
          secretKeyEnc: app.secrets.seal(input.secret_key),
          webhookSecretEnc: app.secrets.seal(input.webhook_secret),
          // The merchant's console keeps the operator's address; only the seed and the operator console set it.
          apiBaseUrl: opts.fromSeed || opts.setsApiBaseUrl ? (input.api_base_url ?? null) : (existing?.apiBaseUrl ?? null),
          hostedCheckout: input.provider === 'paymongo' && input.checkout === 'hosted',
        };
  // The QR Ph code's life: as the input names it, else as it was (the console's acquirer form does not carry it).
  const qrExpirySeconds = input.provider === 'stripe' ? null : (input.qr_expiry_seconds ?? existing?.qrExpirySeconds ?? null);
  const now = app.now();
  if (existing) {
    await tx
      .update(integratorAcquirers)
      .set({ ...values, qrExpirySeconds, updatedAt: now, ...(hash ? { seedSha256: hash } : {}) })
      .where(eq(integratorAcquirers.integratorId, integratorId));
  } else {
    await tx
      .insert(integratorAcquirers)
      .values({ integratorId, ...values, qrExpirySeconds, webhookId: `wh_${randomBytes(16).toString('hex')}`, seedSha256: hash ?? null, updatedAt: now });
  }
  if (opts.actor)
    await recordAudit(tx, opts.actor, 'acquirer.changed', input.provider === 'sandbox' ? 'sandbox' : `${input.provider} (${input.public_key})`, now);
}

/**
 * The console's Developers page (owners) and the operator console: parses the form, saves the
 * acquirer and its audit entries in one transaction, and makes this process read the new settings
 * at once. Only the operator's form carries `api_base_url` (`setsApiBaseUrl`); blank is the provider's own.
 */
export async function changeAcquirer(
  app: DomainContext,
  integratorId: string,
  fields: Record<string, string>,
  actor: Actor,
  opts: { setsApiBaseUrl?: boolean; onSaved?: (tx: DbOrTx, input: AcquirerInput) => Promise<void> } = {},
): Promise<AcquirerInput> {
  const provider = fields.provider ?? '';
  const baseUrl = opts.setsApiBaseUrl && fields.api_base_url?.trim() ? { api_base_url: fields.api_base_url.trim() } : {};
  const keys = { public_key: fields.public_key ?? '', secret_key: fields.secret_key ?? '', webhook_secret: fields.webhook_secret ?? '', ...baseUrl };
  const input =
    provider === 'sandbox' ? { provider } : provider === 'paymongo' ? { provider, ...keys, checkout: fields.checkout || 'card_form' } : { provider, ...keys };
  const parsed = parseWith(acquirerInputSchema, input);
  if (!parsed.ok) throw invalidFields(parsed.messages);
  await app.db.transaction(async (tx) => {
    await setAcquirer(app, tx, integratorId, parsed.value, { actor, setsApiBaseUrl: opts.setsApiBaseUrl });
    await opts.onSaved?.(tx, parsed.value);
  });
  app.connectors.forget(integratorId);
  return parsed.value;
}

/**
 * The Developers page's QR Ph setting: how many minutes a customer has to scan and pay a code
 * (1 to 150, PayMongo's range), or empty for PayMongo's 30. Kept beside the acquirer's keys (a
 * sandbox integrator with no row gets one), audited, and read by the next QR Ph code at once.
 */
export async function changeQrExpiry(app: DomainContext, integratorId: string, rawMinutes: string, actor: Actor): Promise<number | null> {
  const raw = rawMinutes.trim();
  let seconds: number | null = null;
  if (raw !== '') {
    const minutes = /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
    const parsed = qrExpirySecondsSchema.safeParse(minutes * 60);
    if (!parsed.success) throw invalidFields({ qr_expiry_minutes: ['must be a whole number of minutes from 1 to 150 (PayMongo’s range)'] });
    seconds = parsed.data;
  }
  await app.db.transaction(async (tx) => {
    const [existing] = await tx.select().from(integratorAcquirers).where(eq(integratorAcquirers.integratorId, integratorId)).for('update');
    if (existing?.provider === 'stripe') throw invalidFields({ qr_expiry_minutes: ['cannot be set: Stripe does not take QR Ph'] });
    const now = app.now();
    if (existing)
      await tx.update(integratorAcquirers).set({ qrExpirySeconds: seconds, updatedAt: now }).where(eq(integratorAcquirers.integratorId, integratorId));
    else
      await tx.insert(integratorAcquirers).values({
        integratorId,
        provider: 'sandbox',
        qrExpirySeconds: seconds,
        webhookId: `wh_${randomBytes(16).toString('hex')}`,
        updatedAt: now,
      });
    await recordAudit(tx, actor, 'qr_expiry.changed', seconds === null ? '(default)' : String(seconds / 60), now);
  });
  return seconds;
}
