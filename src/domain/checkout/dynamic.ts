import type { DynamicLinkBody } from '../../schemas/dynamic-link.ts';
import { type FieldPath, fieldPaths } from '../../schemas/fields.ts';
import { linkWireField } from '../../schemas/link.ts';
import type { Item } from '../../schemas/link-sale.ts';
import { emptyMessages } from '../../schemas/parse.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidFields, type Messages } from '../errors.ts';
import { isLinkKeyShaped } from '../integrators/link-keys.ts';
import { acquirerMisfits } from '../links/acquirer-fit.ts';
import { NO_SALE, saleValues } from '../links/editor-sale.ts';
import { fieldMode } from '../links/form.ts';
import { requirePayable } from '../links/lifecycle.ts';
import { findActiveLink, type LinkWithMerchant } from '../links/service.ts';
import { isCurrency, MoneyError, parseAmount } from '../money.ts';
import { callbackUrlProblem } from '../notifications/callback-url.ts';
import { checkAmountBounds } from './amount.ts';
import { checkoutPath, insertSession, newSessionToken } from './sessions.ts';

/**
 * POST /pay/{slug}: the integrator sends spec §2.4's body with its link key in `key`; paylink
 * answers with the address of a checkout page for exactly that payment. Values sent become
 * system-filled (read-only on the form); `system` fields the body lacks are a 422; nothing is
 * created unless everything is valid.
 */

/** The link at the address, or ER.03.10 (404). */
export async function requireLink(app: DomainContext, slug: string): Promise<LinkWithMerchant> {
  const found = await findActiveLink(app.db, slug);
  // paylink's own links (the scheduled payments' link) take no dynamic POST: only paylink opens checkouts on them.
  if (!found || found.link.system) {
    throw new DomainError('ER.03.10', 'Payment link not found', { messages: { link: [`no active payment link at /pay/${slug}`] } });
  }
  return found;
}

/**
 * `key` must be the publishable link key (`pk_link_…`, src/domain/integrators/link-keys.ts) or,
 * for clients written before link keys, the API token of the integrator who owns the link: a
 * missing key is ER.01.01 (401); the owner, or undefined for a key that is not the owner's (the
 * caller refuses it and counts the failure against the client's address).
 */
export async function authenticateLinkKey(app: DomainContext, link: LinkWithMerchant, key: unknown) {
  if (typeof key !== 'string' || key.trim() === '') {
    throw new DomainError('ER.01.01', 'Missing link key', {
      messages: { key: ['is required: send your link key (pk_link_…, Console → Developers) in the body field `key`'] },
    });
  }
  const value = key.trim();
  const integrator =
    (isLinkKeyShaped(value) ? await app.tokenCache.findByLinkKey(value, app.now()) : undefined) ?? (await app.tokenCache.find(value, app.now()));
  return integrator && integrator.id === link.link.integratorId ? integrator : undefined;
}

/** The body's values by spec §2.4 dotted path (only those sent). */
export function flattenBody(body: DynamicLinkBody): Partial<Record<FieldPath, string>> {
  const out: Partial<Record<FieldPath, string>> = {};
  const visit = (value: unknown, prefix: string) => {
    if (value === undefined || value === null) return;
    if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) visit(v, prefix ? `${prefix}.${k}` : k);
    } else if ((fieldPaths as readonly string[]).includes(prefix) && String(value) !== '') out[prefix as FieldPath] = String(value);
  };
  visit({ customer: body.customer, payment: body.payment }, '');
  return out;
}

export async function createDynamicLink(
  app: DomainContext,
  link: LinkWithMerchant,
  body: DynamicLinkBody,
): Promise<{ url: string; token: string; sessionId: string }> {
  const l = link.link;
  // An expired or used-up link makes no new checkouts (ER.03.11 / ER.03.12, 410).
  await requirePayable(app.db, l, app.now());
  const sent = flattenBody(body);
  const messages: Messages = emptyMessages();
  for (const path of fieldPaths) {
    if (fieldMode(l, path) === 'system' && sent[path] === undefined) {
      (messages[path] ??= []).push('is required: this link has it filled by the system, so the request must send it');
    }
  }
  const callbackProblem = body.route?.callback_url && callbackUrlProblem(body.route.callback_url, app.config.allowPrivateCallbacks);
  if (callbackProblem) messages['route.callback_url'] = [callbackProblem];
  const currency = body.payment?.currency ?? l.currency;
  if (!isCurrency(currency)) (messages['payment.currency'] ??= []).push(`${currency} is not a supported ISO 4217 currency code`);
  let amountMinor: bigint | null = null;
  const sellsItems = body.items !== undefined && body.items.length > 0;
  if (body.payment?.amount !== undefined && isCurrency(currency)) {
    try {
      amountMinor = parseAmount(body.payment.amount, currency).minor;
      const bounds = checkAmountBounds(l, amountMinor, currency);
      if (bounds) (messages['payment.amount'] ??= []).push(bounds);
    } catch (error) {
      if (!(error instanceof MoneyError)) throw error;
      (messages['payment.amount'] ??= []).push(error.message);
    }
  } else if (body.payment?.amount === undefined && !sellsItems) {
    if (currency !== l.currency && l.amountMinor !== null) {
      (messages['payment.amount'] ??= []).push(`is required when payment.currency (${currency}) differs from the link's currency (${l.currency})`);
    }
    amountMinor = currency === l.currency ? l.amountMinor : null;
  }
  // Items sent replace the link's own items or amount; the total is then the page's to compute.
  let items: Item[] | null = null;
  if (sellsItems) {
    if (body.payment?.amount !== undefined) (messages['payment.amount'] ??= []).push('must not be sent together with items: the total is the sum of the items');
    const problem = (field: string, message: string) => (messages[linkWireField(field)] ??= []).push(message);
    items = saleValues({ ...NO_SALE, items: body.items ?? [] }, isCurrency(currency) ? currency : null, problem).items;
    amountMinor = null;
  }
  if (Object.keys(messages).length === 0) {
    // A checkout the merchant's acquirer could not take is refused now, not when the customer pays.
    const misfits = acquirerMisfits(await app.connectors.forIntegrator(l.integratorId), { currency, amountMinor, minAmountMinor: null, maxAmountMinor: null });
    if (misfits.currency) messages['payment.currency'] = [misfits.currency];
    if (misfits.amount) messages['payment.amount'] = [misfits.amount];
  }
  if (Object.keys(messages).length > 0) throw invalidFields(messages);

  const systemValues: Record<string, string> = {};
  for (const [path, value] of Object.entries(sent)) if (path.startsWith('customer.')) systemValues[path] = value;
  const token = newSessionToken();
  const session = await insertSession(app, app.db, token, {
    linkId: l.id,
    integratorId: l.integratorId,
    kind: 'dynamic',
    amountMinor,
    currency,
    description: body.payment?.description ?? l.description ?? l.title,
    merchantReferenceId: body.payment?.merchant_reference_id ?? null,
    systemValues,
    items,
    callbackUrl: body.route?.callback_url ?? l.callbackUrl,
    successUrl: body.route?.success_url ?? null,
    cancelUrl: body.route?.cancel_url ?? null,
    notifyUser: body.route?.notify_user ?? false,
  });
  return { url: `${app.origin()}${checkoutPath(token)}`, token, sessionId: session.id };
}
