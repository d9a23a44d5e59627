import { and, asc, count, eq, gte, inArray, sql, sum } from 'drizzle-orm';
import { newId } from '../../crypto.ts';
import { consoleUsers, type Integrator, integrators, links, payments } from '../../db/schema.ts';
import { type LinkFieldModes, linkFieldModesSchema, newIntegratorSchema } from '../../schemas/operator.ts';
import { parseWith } from '../../schemas/parse.ts';
import type { Actor } from '../accounts/audit.ts';
import { recordAudit } from '../accounts/audit.ts';
import { inviteFirstOwner } from '../accounts/first-owner.ts';
import type { RequestOrigin } from '../accounts/sessions.ts';
import type { DomainContext } from '../context.ts';
import { invalidFields, notFound, withFieldNames } from '../errors.ts';
import { acquirerView, changeAcquirer } from '../integrators/acquirer.ts';
import { newApiToken, newJwtSecret, parseOverlap, ROTATION_OVERLAPS } from '../integrators/credentials.ts';
import { linkKeyColumns, newLinkKey } from '../integrators/link-keys.ts';
import { newWebhookSecret } from '../integrators/provisioning.ts';
import { hashToken } from '../integrators/service.ts';
import type { SuspensionActor } from '../integrators/suspension.ts';
import { callbackUrlProblem } from '../notifications/callback-url.ts';
import { ROTATION_GRACE_MS } from '../notifications/signing.ts';
import { identityOperatorActor, type OperatorIdentity } from './accounts.ts';
import { recordOperatorAudit } from './audit.ts';

/**
 * What support does for integrators (the operator console): make one, see every one with its
 * volume, rotate its credentials, set its acquirer and its dynamic-link field modes. Each change is
 * written to the operator audit log and, so the merchant sees what support did to its account, to
 * the integrator's own activity log too, in the transaction that makes it.
 */

/** The volume the list shows: succeeded payments of the last this many days. */
export const VOLUME_DAYS = 30;

/** The merchant's activity log names support as the actor (no console user). */
const merchantActor = (identity: OperatorIdentity, integratorId: string, from: RequestOrigin): Actor => ({
  integratorId,
  userId: null,
  email: `support (${identity.operator.email})`,
  ...from,
});

/** An operator suspending or reactivating from the console: themselves in the operator log, support in the merchant's activity. */
export const supportSuspensionActor = (identity: OperatorIdentity, integratorId: string, from: RequestOrigin): SuspensionActor => ({
  operator: identityOperatorActor(identity, from),
  activity: merchantActor(identity, integratorId, from),
});

/** Secrets shown once, right after they are made. */
export interface IssuedCredentials {
  token: string;
  secret: string;
  webhookSecret: string;
  linkKey: string;
}

export interface CreatedIntegrator {
  integrator: Integrator;
  credentials: IssuedCredentials;
  invite: { email: string; url: string; expiresAt: Date; mail: 'queued' | 'file-only' };
}

/** Makes an integrator with fresh credentials and invites its first owner; the secrets are returned once. */
export async function createIntegrator(
  app: DomainContext,
  identity: OperatorIdentity,
  fields: Record<string, string>,
  from: RequestOrigin,
): Promise<CreatedIntegrator> {
  const parsed = parseWith(newIntegratorSchema, fields);
  if (!parsed.ok) throw invalidFields(parsed.messages);
  const input = parsed.value;
  if (input.default_callback_url) {
    const problem = callbackUrlProblem(input.default_callback_url, app.config.allowPrivateCallbacks);
    if (problem) throw invalidFields({ default_callback_url: [problem] });
  }
  const credentials: IssuedCredentials = { token: newApiToken(), secret: newJwtSecret(), webhookSecret: newWebhookSecret(), linkKey: newLinkKey() };
  const now = app.now();
  const result = await app.db.transaction(async (tx) => {
    const [taken] = await tx.select({ id: integrators.id }).from(integrators).where(eq(integrators.email, input.email));
    if (taken) throw invalidFields({ email: ['is already the contact address of another integrator'] });
    const id = newId('int');
    const [integrator] = await tx
      .insert(integrators)
      .values({
        id,
        name: input.name,
        email: input.email,
        supportEmail: input.support_email ?? null,
        defaultCallbackUrl: input.default_callback_url ?? null,
        tokenHash: hashToken(credentials.token),
        secretEnc: app.secrets.seal(credentials.secret),
        webhookSecretEnc: app.secrets.seal(credentials.webhookSecret),
        ...linkKeyColumns(app, credentials.linkKey),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const actor = identityOperatorActor(identity, from);
    await recordOperatorAudit(tx, actor, 'integrator.created', { integratorId: id, target: `${input.name} <${input.email}>` }, now);
    const invite = await inviteFirstOwner(app, tx, {
      integratorId: id,
      integratorName: input.name,
      email: input.owner_email,
      inviterEmail: `support (${identity.operator.email})`,
      from,
    });
    await recordOperatorAudit(tx, actor, 'owner.invited', { integratorId: id, target: invite.email }, now);
    return { integrator: integrator!, invite };
  });
  app.tokenCache.changed();
  return { ...result, credentials };
}

export interface IntegratorRow {
  id: string;
  name: string;
  email: string;
  createdAt: Date;
  /** Since when it is suspended (null: active). */
  suspendedAt: Date | null;
  /** Succeeded payments of the last VOLUME_DAYS days, per currency (amounts in minor units), largest count first. */
  volume: Array<{ currency: string; count: number; amountMinor: bigint }>;
  owners: number;
}

/** Every integrator (or the one `only` names), by name, with its volume and how many owners can sign in. */
export async function listIntegrators(app: DomainContext, only?: string): Promise<IntegratorRow[]> {
  const rows = await app.db
    .select({ id: integrators.id, name: integrators.name, email: integrators.email, createdAt: integrators.createdAt, suspendedAt: integrators.suspendedAt })
    .from(integrators)
    .where(only === undefined ? undefined : eq(integrators.id, only))
    .orderBy(asc(integrators.name), asc(integrators.id));
  if (rows.length === 0) return [];
  const since = new Date(app.now().getTime() - VOLUME_DAYS * 86_400_000);
  const ids = rows.map((r) => r.id);
  const [volumes, owners] = await Promise.all([
    app.db
      .select({ integratorId: payments.integratorId, currency: payments.currency, count: count(), amount: sum(payments.amountMinor) })
      .from(payments)
      .where(and(inArray(payments.integratorId, ids), eq(payments.status, 'succeeded'), gte(payments.createdAt, since)))
      .groupBy(payments.integratorId, payments.currency),
    app.db
      .select({ integratorId: consoleUsers.integratorId, count: count() })
      .from(consoleUsers)
      .where(and(inArray(consoleUsers.integratorId, ids), eq(consoleUsers.role, 'owner'), sql`${consoleUsers.passwordHash} is not null`))
      .groupBy(consoleUsers.integratorId),
  ]);
  return rows.map((r) => ({
    ...r,
    volume: volumes
      .filter((v) => v.integratorId === r.id)
      .map((v) => ({ currency: v.currency, count: v.count, amountMinor: BigInt(v.amount ?? 0) }))
      .sort((a, b) => b.count - a.count || a.currency.localeCompare(b.currency)),
    owners: owners.find((o) => o.integratorId === r.id)?.count ?? 0,
  }));
}

async function theIntegrator(app: DomainContext, id: string): Promise<Integrator> {
  const [row] = await app.db.select().from(integrators).where(eq(integrators.id, id));
  if (!row) throw notFound('(request)', 'This integrator');
  return row;
}

/** One integrator as its page shows it (never a secret). */
export async function integratorDetail(app: DomainContext, id: string) {
  const integrator = await theIntegrator(app, id);
  const [linkRow] = await app.db
    .select({ n: count() })
    .from(links)
    .where(and(eq(links.integratorId, id), eq(links.system, false)));
  const users = await app.db
    .select({
      email: consoleUsers.email,
      role: consoleUsers.role,
      invited: sql<boolean>`${consoleUsers.passwordHash} is null`,
      lastSignInAt: consoleUsers.lastSignInAt,
    })
    .from(consoleUsers)
    .where(eq(consoleUsers.integratorId, id))
    .orderBy(asc(consoleUsers.createdAt));
  const [row] = await listIntegrators(app, id);
  return { integrator, linkCount: linkRow?.n ?? 0, users, volume: row?.volume ?? [], acquirer: await acquirerView(app, id) };
}

export interface RotatedCredentials {
  token: string;
  secret: string;
  webhookSecret: string;
  /** Until when the replaced token and JWT secret still work; null when they stopped at once. */
  previousValidUntil: Date | null;
  /** The replaced webhook secret signs alongside the new one until then (as the API's rotation). */
  previousWebhookSecretUntil: Date;
}

/**
 * New API token, JWT secret and webhook secret at once (a leak, a handover): the replaced token and
 * secret keep working for the chosen overlap, the webhook secret signs beside the new one for 24
 * hours, as the merchant's own rotations do (src/domain/integrators/credentials.ts). Shown once.
 */
export async function rotateCredentials(
  app: DomainContext,
  identity: OperatorIdentity,
  id: string,
  rawOverlap: string,
  from: RequestOrigin,
): Promise<RotatedCredentials> {
  const overlap = parseOverlap(rawOverlap);
  const seconds = ROTATION_OVERLAPS[overlap].seconds;
  const token = newApiToken();
  const secret = newJwtSecret();
  const webhookSecret = newWebhookSecret();
  const now = app.now();
  const validUntil = seconds === 0 ? null : new Date(now.getTime() + seconds * 1000);
  await app.db.transaction(async (tx) => {
    const [current] = await tx.select().from(integrators).where(eq(integrators.id, id)).for('update');
    if (!current) throw notFound('(request)', 'This integrator');
    await tx
      .update(integrators)
      .set({
        tokenHash: hashToken(token),
        previousTokenHash: validUntil ? current.tokenHash : null,
        previousTokenValidUntil: validUntil,
        secretEnc: app.secrets.seal(secret),
        previousSecretEnc: validUntil ? current.secretEnc : null,
        previousSecretValidUntil: validUntil,
        webhookSecretEnc: app.secrets.seal(webhookSecret),
        previousWebhookSecretEnc: current.webhookSecretEnc,
        webhookSecretRotatedAt: now,
        updatedAt: now,
      })
      .where(eq(integrators.id, id));
    const merchant = merchantActor(identity, id, from);
    await recordAudit(tx, merchant, 'api_token.rotated', `overlap ${overlap}`, now);
    await recordAudit(tx, merchant, 'jwt_secret.rotated', `overlap ${overlap}`, now);
    await recordAudit(tx, merchant, 'webhook_secret.rotated', null, now);
    await recordOperatorAudit(
      tx,
      identityOperatorActor(identity, from),
      'credentials.rotated',
      { integratorId: id, target: `${current.name}: overlap ${overlap}` },
      now,
    );
  });
  app.tokenCache.changed();
  return { token, secret, webhookSecret, previousValidUntil: validUntil, previousWebhookSecretUntil: new Date(now.getTime() + ROTATION_GRACE_MS) };
}

/**
 * The integrator's acquirer, with the merchant console's rules (src/domain/integrators/acquirer.ts),
 * plus the provider API origin (`api_base_url`) only the seed and support may set.
 */
export async function setIntegratorAcquirer(
  app: DomainContext,
  identity: OperatorIdentity,
  id: string,
  fields: Record<string, string>,
  from: RequestOrigin,
): Promise<void> {
  const integrator = await theIntegrator(app, id);
  try {
    await changeAcquirer(app, id, fields, merchantActor(identity, id, from), {
      setsApiBaseUrl: true,
      onSaved: (tx, input) =>
        recordOperatorAudit(
          tx,
          identityOperatorActor(identity, from),
          'acquirer.changed',
          {
            integratorId: id,
            target: `${integrator.name}: ${input.provider === 'sandbox' ? 'sandbox' : `${input.provider} (${input.public_key})${input.api_base_url ? ` at ${input.api_base_url}` : ''}`}`,
          },
          app.now(),
        ),
    });
  } catch (error) {
    // The seed names it `acquirer.api_base_url`; this form, `api_base_url`.
    throw withFieldNames(error, (field) => field.replace(/^acquirer\./, ''));
  }
}

/** The dynamic-link field modes agreed with the integrator: the modes its new links start with. */
export async function setLinkFieldModes(
  app: DomainContext,
  identity: OperatorIdentity,
  id: string,
  modes: Record<string, string>,
  from: RequestOrigin,
): Promise<LinkFieldModes> {
  // 'default' (or nothing) leaves a field to the links' own default.
  const chosen = Object.fromEntries(Object.entries(modes).filter(([, mode]) => mode !== '' && mode !== 'default'));
  const parsed = parseWith(linkFieldModesSchema, chosen);
  if (!parsed.ok) throw invalidFields(Object.fromEntries(Object.entries(parsed.messages).map(([k, v]) => [`mode.${k}`, v])));
  const now = app.now();
  await app.db.transaction(async (tx) => {
    const [current] = await tx.select().from(integrators).where(eq(integrators.id, id)).for('update');
    if (!current) throw notFound('(request)', 'This integrator');
    await tx.update(integrators).set({ linkFieldModes: parsed.value, updatedAt: now }).where(eq(integrators.id, id));
    const described = Object.entries(parsed.value)
      .map(([path, mode]) => `${path}=${mode}`)
      .join(', ');
    await recordOperatorAudit(
      tx,
      identityOperatorActor(identity, from),
      'field_modes.changed',
      { integratorId: id, target: `${current.name}: ${described || '(defaults)'}` },
      now,
    );
  });
  return parsed.value;
}
