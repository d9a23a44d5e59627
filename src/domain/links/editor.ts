import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { newId } from '../../crypto.ts';
import type { DbOrTx } from '../../db/client.ts';
import { type FieldMode, integrators, type Link, links } from '../../db/schema.ts';
import type { FieldPath } from '../../schemas/fields.ts';
import { emptyMessages } from '../../schemas/parse.ts';
import { type PaymentMethod, paymentMethodNames } from '../../schemas/payment-method.ts';
import type { SubscriptionConfig } from '../../schemas/subscription.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidFields, type Messages, notFound, theRow } from '../errors.ts';
import { formatDecimal, isCurrency, MoneyError, parseAmount } from '../money.ts';
import { callbackUrlProblem } from '../notifications/callback-url.ts';
import { acquirerMisfits, acquirerName, type LinkAcquirer } from './acquirer-fit.ts';
import { NO_SALE, type SaleSettings, saleSettingsOf, saleValues } from './editor-sale.ts';
import { dropUnusedItemImages, readItemImages, storeImage, withItemImages } from './item-images.ts';
import { readLogoSource, validateLogo } from './logos.ts';
import { allowedMethods, defaultMethodsOf, methodsMisfit } from './payment-methods.ts';
import { subscriptionProblems } from './subscription.ts';

/**
 * The one place a link is created or changed, whatever door the change comes through: the seed
 * file (src/domain/integrators/provisioning.ts), the API (/api/v1/links) and the console
 * (src/domain/links/console.ts, which records each save in the audit log through `onSaved`),
 * and the system link schedules' payment links belong to (src/domain/schedules/pay-links.ts).
 * Every setting is checked at once; a refusal names each bad setting by its name here
 * (`amount`, `minAmount`, `logo`, …) and writes nothing: each door renames them to its own
 * fields (the API's `min_amount`, the console's inputs, the seed's keys). Payment pages read
 * links from the database on every view, so a change shows on /pay/{slug} at once.
 */
export interface LinkSettings extends SaleSettings {
  title: string;
  description: string | null;
  currency: string;
  /** Decimal strings in the link's currency, as the merchant typed them (checked here). */
  amount: string | null;
  minAmount: string | null;
  maxAmount: string | null;
  brandColor: string | null;
  /** A data: URL or (seed only) a file path relative to `baseDir`; null removes the logo; undefined keeps it. */
  logo: LogoSource | null | undefined;
  /** Seed only: the folder items' image paths are read from (elsewhere an item's image is a data: URL). */
  imageDir?: string;
  labels: Partial<Record<FieldPath, string>>;
  fields: Partial<Record<FieldPath, FieldMode>>;
  callbackUrl: string | null;
  active: boolean;
  /** An ISO 8601 date and time. */
  expiresAt: string | null;
  maxPayments: number | null;
  successUrl: string | null;
  cancelUrl: string | null;
  locale: string | null;
  /** The methods its page offers, in the merchant's order of preference; null: the integrator's defaults. */
  paymentMethods: PaymentMethod[] | null;
  /** Paying the link starts a subscription on this plan (src/domain/links/subscription.ts); null: a one-off payment. */
  subscription: SubscriptionConfig | null;
}

export interface LogoSource {
  source: string;
  baseDir: string;
}

/** A new link: its title and currency, and any other setting (absent: the default). */
export type NewLink = Pick<LinkSettings, 'title' | 'currency'> & Partial<LinkSettings> & { slug?: string };

/** A change to a link: the settings given change (null clears one); the rest stay. */
export type LinkPatch = Partial<LinkSettings>;

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
  const minAmountMinor = amount('minAmount', s.minAmount);
  const maxAmountMinor = amount('maxAmount', s.maxAmount);
  if (s.amount !== null && (s.minAmount !== null || s.maxAmount !== null)) {
    problem(s.minAmount !== null ? 'minAmount' : 'maxAmount', 'applies only to a link without a fixed amount');
  }
  if (minAmountMinor !== null && maxAmountMinor !== null && minAmountMinor > maxAmountMinor) problem('minAmount', 'must not be above {maxAmount}');
  const sale = saleValues(s, currencyOk ? s.currency : null, problem);
  if (s.items.length > 0)
    for (const field of ['amount', 'minAmount', 'maxAmount'] as const)
      if (s[field] !== null)
        problem(field, 'a link that sells items has no single amount: its total is the sum of its items (remove the amount, or the items)');
  const money = { currency: s.currency, amountMinor, minAmountMinor, maxAmountMinor };
  const moneyChanged =
    !current ||
    current.currency !== money.currency ||
    current.amountMinor !== amountMinor ||
    current.minAmountMinor !== minAmountMinor ||
    current.maxAmountMinor !== maxAmountMinor;
  if (currencyOk && moneyChanged)
    for (const [field, message] of Object.entries(acquirerMisfits(acquirer, money))) if (!messages[field]) problem(field, message);
  for (const field of ['callbackUrl', 'successUrl', 'cancelUrl'] as const) {
    const url = s[field];
    const reason = url ? callbackUrlProblem(url, app.config.allowPrivateCallbacks) : undefined;
    if (reason) problem(field, reason);
  }
  const expiresAt = s.expiresAt === null ? null : new Date(s.expiresAt);
  if (expiresAt && Number.isNaN(expiresAt.getTime())) problem('expiresAt', 'must be an ISO 8601 date and time');
  let logo: Awaited<ReturnType<typeof validateLogo>> | undefined;
  if (s.logo) {
    try {
      logo = await validateLogo(await readLogoSource(s.logo.source, s.logo.baseDir));
    } catch (error) {
      problem('logo', (error as Error).message);
    }
  }
  const itemImages = await readItemImages(s.items, { ...(s.imageDir !== undefined ? { baseDir: s.imageDir } : {}) }, problem);
  const methodsChanged = !current || !sameMethods(current.paymentMethods, s.paymentMethods);
  if (methodsChanged && s.paymentMethods !== null && s.paymentMethods.length > 0) {
    const misfit = methodsMisfit(acquirer, s.paymentMethods);
    if (misfit) problem('paymentMethods', misfit);
  }
  for (const [field, message] of subscriptionProblems(s, acquirer)) problem(field, message);
  if (Object.keys(messages).length > 0) throw invalidFields(messages);
  if (methodsChanged) await refuseNoMethod(tx, integratorId, s.paymentMethods, acquirer);
  let logoAssetId = s.logo === undefined ? (current?.logoAssetId ?? null) : null;
  if (logo) logoAssetId = await storeImage(tx, integratorId, logo);
  sale.items = await withItemImages(tx, integratorId, sale.items, itemImages, current);
  await dropUnusedItemImages(tx, integratorId, current, { items: sale.items, logoAssetId });
  return {
    title: s.title,
    description: s.description,
    currency: s.currency,
    amountMinor,
    minAmountMinor,
    maxAmountMinor,
    brandColor: s.brandColor,
    logoAssetId,
    labels: s.labels as Record<string, string>,
    fields: s.fields as Record<string, FieldMode>,
    callbackUrl: s.callbackUrl,
    active: s.active,
    expiresAt,
    maxPayments: s.maxPayments,
    successUrl: s.successUrl,
    cancelUrl: s.cancelUrl,
    locale: s.locale,
    paymentMethods: s.paymentMethods,
    ...sale,
    subscription: s.subscription,
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
    minAmount: money(link.minAmountMinor),
    maxAmount: money(link.maxAmountMinor),
    brandColor: link.brandColor,
    logo: undefined,
    labels: link.labels as LinkSettings['labels'],
    fields: link.fields as LinkSettings['fields'],
    callbackUrl: link.callbackUrl,
    active: link.active,
    expiresAt: link.expiresAt?.toISOString() ?? null,
    maxPayments: link.maxPayments,
    successUrl: link.successUrl,
    cancelUrl: link.cancelUrl,
    locale: link.locale,
    paymentMethods: link.paymentMethods,
    ...saleSettingsOf(link),
    subscription: link.subscription,
  };
}

const sameMethods = (a: readonly PaymentMethod[] | null, b: readonly PaymentMethod[] | null) =>
  a === null || b === null ? a === b : a.length === b.length && a.every((m, i) => m === b[i]);

/**
 * A link its page could offer no method on is refused (ER.03.13): an empty list, or no list while
 * the integrator's defaults name only methods the acquirer does not take.
 */
async function refuseNoMethod(tx: DbOrTx, integratorId: string, chosen: PaymentMethod[] | null, acquirer: LinkAcquirer): Promise<void> {
  const defaults = await defaultMethodsOf(tx, integratorId);
  if (allowedMethods({ paymentMethods: chosen }, { defaultPaymentMethods: defaults }, acquirer).length > 0) return;
  const why =
    chosen !== null
      ? 'must allow at least one payment method'
      : defaults !== null
        ? `names none, and none of your account's default payment methods (${defaults.map((m) => paymentMethodNames[m]).join(', ')}) is one ${acquirerName(acquirer)} takes: choose this link's methods, or change the defaults`
        : `names none, and ${acquirerName(acquirer)} takes no payment method`;
  throw new DomainError('ER.03.13', 'The payment link allows no payment method', { messages: { paymentMethods: [why] }, httpStatus: 422 });
}

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

/** A new link (API, console); the slug is generated when not given. */
export async function createLink(app: DomainContext, integrator: { id: string }, input: NewLink, onSaved?: OnLinkSaved): Promise<Link> {
  const { slug: givenSlug, ...given } = input;
  const slug = givenSlug ?? `link-${randomBytes(5).toString('hex')}`;
  // The field modes support agreed with the integrator (the operator console) under the link's own.
  const [agreed] = await app.db.select({ modes: integrators.linkFieldModes }).from(integrators).where(eq(integrators.id, integrator.id));
  const fields = { ...(agreed?.modes as LinkSettings['fields'] | undefined), ...given.fields };
  const settings: LinkSettings = {
    ...DEFAULT_SETTINGS,
    ...withoutUndefined(given),
    fields,
    title: input.title,
    currency: input.currency,
    logo: input.logo ?? null,
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

/** Every setting a new link leaves out. */
const DEFAULT_SETTINGS: Omit<LinkSettings, 'title' | 'currency'> = {
  description: null,
  amount: null,
  minAmount: null,
  maxAmount: null,
  brandColor: null,
  logo: null,
  labels: {},
  fields: {},
  callbackUrl: null,
  active: true,
  expiresAt: null,
  maxPayments: null,
  successUrl: null,
  cancelUrl: null,
  locale: null,
  paymentMethods: null,
  ...NO_SALE,
  subscription: null,
};

const withoutUndefined = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** Changes the given settings of a link (null clears one); the rest stay. */
export async function updateLink(app: DomainContext, integrator: { id: string }, slug: string, patch: LinkPatch, onSaved?: OnLinkSaved): Promise<Link> {
  const acquirer = await app.connectors.forIntegrator(integrator.id);
  return savingLink(app, async (tx) => {
    const [current] = await tx
      .select()
      .from(links)
      .where(and(eq(links.slug, slug), eq(links.integratorId, integrator.id), eq(links.system, false)))
      .for('update');
    if (!current) throw notFound('slug', 'Link');
    const merged: LinkSettings = { ...settingsOf(current), ...withoutUndefined(patch), logo: patch.logo };
    // A fixed amount given now replaces a range, and a range replaces a fixed amount.
    if (patch.amount != null && patch.minAmount === undefined) merged.minAmount = null;
    if (patch.amount != null && patch.maxAmount === undefined) merged.maxAmount = null;
    if ((patch.minAmount != null || patch.maxAmount != null) && patch.amount === undefined) merged.amount = null;
    // Items given now replace a single amount or range; an amount given to a link with items is refused.
    if (patch.items !== undefined && patch.items.length > 0)
      for (const field of ['amount', 'minAmount', 'maxAmount'] as const) if (patch[field] === undefined) merged[field] = null;
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
