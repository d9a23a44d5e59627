import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { newId, sha256Hex } from '../../crypto.ts';
import type { DbOrTx } from '../../db/client.ts';
import { assets, type FieldMode, type Link, links } from '../../db/schema.ts';
import type { FieldPath } from '../../schemas/fields.ts';
import type { LinkCreate, LinkUpdate } from '../../schemas/link.ts';
import { emptyMessages } from '../../schemas/parse.ts';
import type { DomainContext } from '../context.ts';
import { invalidFields, type Messages, notFound, theRow } from '../errors.ts';
import { formatDecimal, isCurrency, MoneyError, parseAmount } from '../money.ts';
import { callbackUrlProblem } from '../notifications/callback-url.ts';
import { acquirerMisfits, type LinkAcquirer } from './acquirer-fit.ts';
import { readLogoSource, validateLogo } from './logos.ts';

/**
 * The one place a link is created or changed, whatever door the change comes through: the seed
 * file (src/domain/integrators/provisioning.ts), the API (/api/v1/links) and the console
 * (src/domain/links/console.ts, which records each save in the audit log through `onSaved`),
 * and the system link schedules' payment links belong to (src/domain/schedules/pay-links.ts).
 * Every setting is checked at once; a refusal names each bad field (`amount`, `logo`, …) and
 * writes nothing. Payment pages read links from the database on every view, so a change shows
 * on /pay/{slug} at once.
 */
export interface LinkSettings {
  title: string;
  description: string | null;
  currency: string;
  amount: string | null;
  min_amount: string | null;
  max_amount: string | null;
  brand_color: string | null;
  /** A data: URL or (seed only) a file path relative to `baseDir`; null removes the logo; undefined keeps it. */
  logo: { source: string; baseDir: string } | null | undefined;
  labels: Partial<Record<FieldPath, string>>;
  fields: Partial<Record<FieldPath, FieldMode>>;
  callback_url: string | null;
  active: boolean;
  expires_at: string | null;
  max_payments: number | null;
  success_url: string | null;
  cancel_url: string | null;
  locale: string | null;
}

type LinkValues = Omit<typeof links.$inferInsert, 'id' | 'slug' | 'integratorId' | 'createdAt'>;

/**
 * Checks every setting and turns it into column values (storing a new logo as an asset). The money
 * a link asks for must fit the merchant's `acquirer` (src/domain/links/acquirer-fit.ts) when the link
 * is new or its money changes: a link made before the merchant changed acquirer can still be renamed
 * or switched off. The acquirer is looked up before the saving transaction (on PGlite, its one
 * connection is held by that transaction).
 */
export async function linkValues(
  app: DomainContext,
  tx: DbOrTx,
  integratorId: string,
  s: LinkSettings,
  acquirer: LinkAcquirer,
  current?: Link,
): Promise<LinkValues> {
  const messages: Messages = emptyMessages();
  const problem = (field: string, message: string) => {
    messages[field] = [...(messages[field] ?? []), message];
  };
  const currencyOk = isCurrency(s.currency);
  if (!currencyOk) problem('currency', `${s.currency} is not a supported ISO 4217 currency code`);
  const amount = (field: string, value: string | null) => {
    if (value === null || !currencyOk) return null;
    try {
      return parseAmount(value, s.currency).minor;
    } catch (error) {
      if (!(error instanceof MoneyError)) throw error;
      problem(field, error.message);
      return null;
    }
  };
  const amountMinor = amount('amount', s.amount);
  const minAmountMinor = amount('min_amount', s.min_amount);
  const maxAmountMinor = amount('max_amount', s.max_amount);
  if (s.amount !== null && (s.min_amount !== null || s.max_amount !== null)) {
    problem(s.min_amount !== null ? 'min_amount' : 'max_amount', 'applies only to a link without a fixed amount');
  }
  if (minAmountMinor !== null && maxAmountMinor !== null && minAmountMinor > maxAmountMinor) problem('min_amount', 'must not be above max_amount');
  const money = { currency: s.currency, amountMinor, minAmountMinor, maxAmountMinor };
  const moneyChanged =
    !current ||
    current.currency !== money.currency ||
    current.amountMinor !== amountMinor ||
    current.minAmountMinor !== minAmountMinor ||
    current.maxAmountMinor !== maxAmountMinor;
  if (currencyOk && moneyChanged)
    for (const [field, message] of Object.entries(acquirerMisfits(acquirer, money))) if (!messages[field]) problem(field, message);
  for (const field of ['callback_url', 'success_url', 'cancel_url'] as const) {
    const url = s[field];
    const reason = url ? callbackUrlProblem(url, app.config.allowPrivateCallbacks) : undefined;
    if (reason) problem(field, reason);
  }
  const expiresAt = s.expires_at === null ? null : new Date(s.expires_at);
  if (expiresAt && Number.isNaN(expiresAt.getTime())) problem('expires_at', 'must be an ISO 8601 date and time');
  let logo: Awaited<ReturnType<typeof validateLogo>> | undefined;
  if (s.logo) {
    try {
      logo = await validateLogo(await readLogoSource(s.logo.source, s.logo.baseDir));
    } catch (error) {
      problem('logo', (error as Error).message);
    }
  }
  if (Object.keys(messages).length > 0) throw invalidFields(messages);
  let logoAssetId = s.logo === undefined ? (current?.logoAssetId ?? null) : null;
  if (logo) {
    const digest = sha256Hex(logo.bytes);
    const [same] = await tx
      .select({ id: assets.id })
      .from(assets)
      .where(and(eq(assets.integratorId, integratorId), eq(assets.sha256, digest)));
    logoAssetId = same?.id ?? newId('img');
    if (!same) await tx.insert(assets).values({ id: logoAssetId, integratorId, contentType: logo.contentType, sha256: digest, bytes: logo.bytes });
  }
  return {
    title: s.title,
    description: s.description,
    currency: s.currency,
    amountMinor,
    minAmountMinor,
    maxAmountMinor,
    brandColor: s.brand_color,
    logoAssetId,
    labels: s.labels as Record<string, string>,
    fields: s.fields as Record<string, FieldMode>,
    callbackUrl: s.callback_url,
    active: s.active,
    expiresAt,
    maxPayments: s.max_payments,
    successUrl: s.success_url,
    cancelUrl: s.cancel_url,
    locale: s.locale,
    updatedAt: app.now(),
  };
}

/** A link's current settings, to apply a partial change on top of. */
function settingsOf(link: Link): LinkSettings {
  const money = (minor: bigint | null) => (minor === null ? null : formatDecimal(minor, link.currency));
  return {
    title: link.title,
    description: link.description,
    currency: link.currency,
    amount: money(link.amountMinor),
    min_amount: money(link.minAmountMinor),
    max_amount: money(link.maxAmountMinor),
    brand_color: link.brandColor,
    logo: undefined,
    labels: link.labels as LinkSettings['labels'],
    fields: link.fields as LinkSettings['fields'],
    callback_url: link.callbackUrl,
    active: link.active,
    expires_at: link.expiresAt?.toISOString() ?? null,
    max_payments: link.maxPayments,
    success_url: link.successUrl,
    cancel_url: link.cancelUrl,
    locale: link.locale,
  };
}

const dataLogo = (logo: string | null | undefined) => (logo === undefined ? undefined : logo === null ? null : { source: logo, baseDir: '/' });

/** Runs inside the saving transaction, after the write: e.g. the console's audit entry. */
export type OnLinkSaved = (tx: DbOrTx, link: Link) => Promise<void>;

/** One link write in its own transaction; then the payment pages of this process forget kept links. */
async function savingLink(app: DomainContext, write: (tx: DbOrTx) => Promise<Link>): Promise<Link> {
  try {
    return await app.db.transaction(write);
  } finally {
    app.linkCache.changed();
  }
}

/** POST /api/v1/links: a new link; the slug is generated when not given. */
export async function createLink(app: DomainContext, integrator: { id: string }, input: LinkCreate, onSaved?: OnLinkSaved): Promise<Link> {
  const slug = input.slug ?? `link-${randomBytes(5).toString('hex')}`;
  const settings: LinkSettings = {
    title: input.title,
    description: input.description ?? null,
    currency: input.currency,
    amount: input.amount ?? null,
    min_amount: input.min_amount ?? null,
    max_amount: input.max_amount ?? null,
    brand_color: input.brand_color ?? null,
    logo: dataLogo(input.logo) ?? null,
    labels: input.labels ?? {},
    fields: input.fields ?? {},
    callback_url: input.callback_url ?? null,
    active: input.active ?? true,
    expires_at: input.expires_at ?? null,
    max_payments: input.max_payments ?? null,
    success_url: input.success_url ?? null,
    cancel_url: input.cancel_url ?? null,
    locale: input.locale ?? null,
  };
  const acquirer = await app.connectors.forIntegrator(integrator.id);
  return savingLink(app, async (tx) => {
    const values = await linkValues(app, tx, integrator.id, settings, acquirer);
    const inserted = await tx
      .insert(links)
      .values({ id: newId('lnk'), slug, integratorId: integrator.id, createdAt: app.now(), ...values })
      .onConflictDoNothing({ target: links.slug })
      .returning();
    if (inserted.length === 0) throw invalidFields({ slug: ['is already taken by another link; choose another'] });
    const link = theRow(inserted, 'the new link');
    await onSaved?.(tx, link);
    return link;
  });
}

/** PATCH /api/v1/links/{slug}: changes the given settings (null clears one); the rest stay. */
export async function updateLink(app: DomainContext, integrator: { id: string }, slug: string, patch: LinkUpdate, onSaved?: OnLinkSaved): Promise<Link> {
  const acquirer = await app.connectors.forIntegrator(integrator.id);
  return savingLink(app, async (tx) => {
    const [current] = await tx
      .select()
      .from(links)
      .where(and(eq(links.slug, slug), eq(links.integratorId, integrator.id), eq(links.system, false)))
      .for('update');
    if (!current) throw notFound('slug', 'Link');
    const { logo, ...rest } = patch;
    const merged: LinkSettings = { ...settingsOf(current), ...(rest as Partial<LinkSettings>), logo: dataLogo(logo) };
    // A fixed amount given now replaces a range, and a range replaces a fixed amount.
    if (patch.amount != null && patch.min_amount === undefined) merged.min_amount = null;
    if (patch.amount != null && patch.max_amount === undefined) merged.max_amount = null;
    if ((patch.min_amount != null || patch.max_amount != null) && patch.amount === undefined) merged.amount = null;
    const values = await linkValues(app, tx, integrator.id, merged, acquirer, current);
    const [updated] = await tx.update(links).set(values).where(eq(links.id, current.id)).returning();
    const link = theRow(updated ? [updated] : [], 'the updated link');
    await onSaved?.(tx, link);
    return link;
  });
}

/**
 * A seed file's link (src/domain/integrators/provisioning.ts), in the seed's transaction: the
 * values `linkValues` checked, written over the link the seed made before, or as a new link.
 */
export async function writeSeedLink(
  tx: DbOrTx,
  link: { integratorId: string; slug: string; existing: Pick<Link, 'id'> | undefined },
  values: LinkValues,
): Promise<void> {
  if (link.existing) await tx.update(links).set(values).where(eq(links.id, link.existing.id));
  else await tx.insert(links).values({ id: newId('lnk'), slug: link.slug, integratorId: link.integratorId, ...values });
}

/**
 * A system link (links.system: never listed, edited or deactivated by the merchant), made on first
 * use under its slug; returns its id. Refuses a slug that is not this integrator's system link.
 */
export async function ensureSystemLink(
  tx: DbOrTx,
  link: { integratorId: string; slug: string; title: string; currency: string; fields: Link['fields']; now: Date },
): Promise<string> {
  await tx
    .insert(links)
    .values({
      id: newId('lnk'),
      integratorId: link.integratorId,
      slug: link.slug,
      title: link.title,
      currency: link.currency,
      fields: link.fields,
      system: true,
      createdAt: link.now,
      updatedAt: link.now,
    })
    .onConflictDoNothing({ target: links.slug });
  const [row] = await tx
    .select({ id: links.id })
    .from(links)
    .where(and(eq(links.slug, link.slug), eq(links.integratorId, link.integratorId), eq(links.system, true)));
  if (!row) throw new Error(`the link ${link.slug} is not this integrator's system link`);
  return row.id;
}
