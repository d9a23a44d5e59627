import { and, eq, sql } from 'drizzle-orm';
import { type CardInput, declineMessages } from '../../acquirer/acquirer.ts';
import { newUrlToken, newUuid, sha256Hex } from '../../crypto.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { CardRegistration, Integrator } from '../../db/schema.ts';
import { cardRegistrations } from '../../db/schema.ts';
import type { Locale } from '../../i18n/index.ts';
import { cardSchema, expiryInFuture, parseExpiry } from '../../schemas/card.ts';
import type { CardRegistrationCreate, CardRegistrationsQuery } from '../../schemas/card-registration.ts';
import { parseWith } from '../../schemas/parse.ts';
import { type Actor, recordAudit } from '../accounts/audit.ts';
import type { CardAttempt } from '../checkout/velocity.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidFields, notFound } from '../errors.ts';
import { callbackUrlProblem } from '../notifications/callback-url.ts';
import { recordEvent } from '../notifications/domain-events.ts';
import { keysetPage, type Page } from '../pagination.ts';
import { cancelSchedulesTx } from '../schedules/cancel.ts';
import { activateRegistration, activeCardColumns } from './activation.ts';
import { forgetDeletedCard, forgetOnDelete } from './forget.ts';
import { registrationCollection } from './pay-link.ts';
import { setupConnector } from './setup.ts';

/**
 * Card registrations (the spec's "separate card registration operation"): the integrator asks
 * for one, the customer enters the card on a hosted page, the acquirer verifies and vaults it,
 * and the registration's UUID becomes the `credit_card.reference` schedules charge. paylink
 * keeps only the acquirer's token, brand, last 4 and expiry.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

export const pageTokenHash = (token: string) => sha256Hex(`paylink-card-registration:${token}`);

export async function createCardRegistration(app: DomainContext, integrator: Integrator, input: CardRegistrationCreate) {
  const connector = await app.connectors.forIntegrator(integrator.id);
  // No off-session charges with this acquirer: a registration without a card, paid by a link each cycle (pay-link.ts).
  // Otherwise the card goes into the acquirer's own fields in setup mode (Stripe, ./setup.ts) or the sandbox's vault.
  const collection = registrationCollection(connector, input);
  if (collection === 'saved_card' && !connector.vault && setupConnector(connector) === undefined) {
    throw new DomainError('ER.11.31', "Card registration not available with the integrator's acquirer", {
      messages: { '(request)': [`the ${connector.name} acquirer does not let paylink keep a card for later charges (docs/acquirers.md)`] },
    });
  }
  const callbackProblem = input.callback_url && callbackUrlProblem(input.callback_url, app.config.allowPrivateCallbacks);
  if (callbackProblem) throw invalidFields({ callback_url: [callbackProblem] });
  const reference = newUuid();
  const token = newUrlToken();
  const now = app.now();
  const expiresAt = new Date(now.getTime() + app.config.checkoutTtlSeconds * 1000);
  await app.db.insert(cardRegistrations).values({
    reference,
    integratorId: integrator.id,
    status: 'pending',
    pageTokenHash: pageTokenHash(token),
    customerName: input.customer?.name ?? null,
    customerEmail: input.customer?.email ?? null,
    callbackUrl: input.callback_url ?? null,
    returnUrl: input.return_url ?? null,
    collection,
    expiresAt,
    createdAt: now,
  });
  return { reference, link: `${app.origin()}/register/${token}`, expiresAt };
}

/** The integrator's own registration, or undefined (another integrator's is never visible). */
async function findOwnRegistration(db: DbOrTx, integratorId: string, reference: string): Promise<CardRegistration | undefined> {
  if (!isUuid(reference)) return undefined;
  const [row] = await db
    .select()
    .from(cardRegistrations)
    .where(and(eq(cardRegistrations.reference, reference.toLowerCase()), eq(cardRegistrations.integratorId, integratorId)));
  return row;
}

export async function getCardRegistration(app: DomainContext, integrator: Pick<Integrator, 'id'>, reference: string): Promise<CardRegistration> {
  const row = await findOwnRegistration(app.db, integrator.id, reference);
  if (!row) throw notFound('reference', 'Card registration');
  return row;
}

/** What a deletion did; `deletedNow` is false when it had been deleted before (nothing changed). */
export interface CardDeletion {
  registration: CardRegistration;
  deletedNow: boolean;
  cancelledSchedules: string[];
  at: Date;
}

/**
 * Deletes a registration and cancels every schedule that charges it, in one transaction; then
 * the card is removed at the acquirer (./forget.ts), which never undoes or fails the deletion.
 * Deleting twice is harmless.
 */
export async function deleteCardRegistration(
  app: DomainContext,
  integrator: Integrator,
  reference: string,
  opts: { actor?: Actor } = {},
): Promise<CardDeletion> {
  const deletion = await deleteRegistrationTx(app, integrator, reference, opts.actor);
  // The card leaves the acquirer too, once the deletion stands (best effort, retried: ./forget.ts).
  if (deletion.deletedNow) await forgetDeletedCard(app, deletion.registration);
  return deletion;
}

function deleteRegistrationTx(app: DomainContext, integrator: Integrator, reference: string, actor: Actor | undefined): Promise<CardDeletion> {
  const now = app.now();
  return app.db.transaction(async (tx) => {
    if (!isUuid(reference)) throw notFound('reference', 'Reference');
    const [row] = await tx
      .select()
      .from(cardRegistrations)
      .where(and(eq(cardRegistrations.reference, reference.toLowerCase()), eq(cardRegistrations.integratorId, integrator.id)))
      .for('update');
    if (!row) throw notFound('reference', 'Reference');
    if (row.status === 'deleted') return { registration: row, deletedNow: false, cancelledSchedules: [], at: row.deletedAt ?? now };
    const [deleted] = await tx
      .update(cardRegistrations)
      .set({ status: 'deleted', deletedAt: now, pageTokenHash: null, ...forgetOnDelete(row, now) })
      .where(eq(cardRegistrations.reference, row.reference))
      .returning();
    const cancelled = await cancelSchedulesTx(app, tx, {
      integratorId: integrator.id,
      cardRegistrationReference: row.reference,
      now,
      reason: 'card_registration_deleted',
    });
    await recordEvent(app.presentEvent, tx, {
      integratorId: integrator.id,
      event: { type: 'card_registration.deleted', registration: deleted!, cancelledSchedules: cancelled },
      callbackUrl: row.callbackUrl,
      now,
    });
    if (actor) await recordAudit(tx, actor, 'card_registration.deleted', deletionTarget(row.reference, cancelled.length), now);
    return { registration: deleted!, deletedNow: true, cancelledSchedules: cancelled, at: now };
  });
}

/** The activity log's target: the reference, and how many schedules went with it (the console's words read it back). */
const deletionTarget = (reference: string, schedulesCancelled: number) =>
  schedulesCancelled === 0 ? reference : `${reference} (${schedulesCancelled} ${schedulesCancelled === 1 ? 'schedule' : 'schedules'} cancelled)`;

/** What the hosted page shows for a token (nothing that identifies the card before it exists). */
export async function registrationForPage(app: DomainContext, token: string) {
  const [row] = await app.db
    .select()
    .from(cardRegistrations)
    .where(eq(cardRegistrations.pageTokenHash, pageTokenHash(token)));
  if (!row) return { state: 'not_found' as const };
  if (row.status === 'active') return { state: 'completed' as const, row };
  if (row.status === 'deleted') return { state: 'not_found' as const };
  if (row.expiresAt && row.expiresAt.getTime() <= app.now().getTime()) return { state: 'expired' as const, row };
  if (row.attempts >= app.config.checkoutMaxAttempts) return { state: 'locked' as const, row };
  return { state: 'open' as const, row };
}

/**
 * The hosted page's submission as the browser sends it (`{ card: { number, expiry, cvc, name } }`),
 * checked with the card form's own rules and the expiry against our clock, then completed.
 */
export async function submitRegistrationCard(
  app: DomainContext,
  token: string,
  input: unknown,
  clientIp = 'unknown',
  locale?: Locale,
): Promise<CardRegistration> {
  const parsed = parseWith(cardSchema, (input as { card?: unknown } | null)?.card ?? {}, 'card');
  if (!parsed.ok) throw invalidFields(parsed.messages);
  const expiry = parseExpiry(parsed.value.expiry)!;
  if (!expiryInFuture(expiry, app.now())) throw invalidFields({ 'card.expiry': ['This card has expired: check the expiry date'] });
  return completeCardRegistration(
    app,
    token,
    {
      number: parsed.value.number,
      expMonth: expiry.month,
      expYear: expiry.year,
      cvc: parsed.value.cvc,
      holderName: parsed.value.name,
    },
    clientIp,
    locale,
  );
}

/**
 * The customer submits a card on the hosted page. One attempt is counted first (a bounded
 * number per registration), then the acquirer verifies and vaults the card outside any
 * transaction, then the registration becomes active and `card_registration.completed` is
 * written to the outbox. Submitting again after success changes nothing.
 */
export async function completeCardRegistration(
  app: DomainContext,
  token: string,
  card: CardInput,
  clientIp = 'unknown',
  locale?: Locale,
): Promise<CardRegistration> {
  const page = await registrationForPage(app, token);
  if (page.state === 'not_found')
    throw new DomainError('ER.02.30', 'Card registration does not exist', {
      httpStatus: 404,
      messages: { token: ['This registration link is not valid. Ask the merchant for a new one.'] },
    });
  if (page.state === 'completed') return page.row;
  if (page.state === 'expired')
    throw new DomainError('ER.12.30', 'Card registration is not active', {
      httpStatus: 410,
      messages: { token: ['This registration link has expired. Ask the merchant for a new one.'] },
      say: 'refusal.registration_expired',
    });
  if (page.state === 'locked')
    throw new DomainError('ER.12.30', 'Card registration is not active', {
      httpStatus: 429,
      messages: { token: ['Too many attempts with this link. Ask the merchant for a new one.'] },
      say: 'refusal.registration_locked',
    });
  const row = page.row;
  if (row.collection === 'pay_link') throw invalidFields({ card: ['This registration takes no card: confirm it on its page.'] });
  // A registration whose card goes into the acquirer's own fields (Stripe) never takes a number here.
  const { vault } = await app.connectors.forIntegrator(row.integratorId);
  if (!vault) {
    throw new DomainError('ER.03.26', 'Card form not available', {
      messages: { '(request)': ['This page takes cards another way. Reload the page to save your card.'] },
    });
  }
  // The velocity limits of the checkout apply here too (per client per integrator, per card).
  const velocity: CardAttempt = { clientIp, scope: `registration:${row.integratorId}`, open: false, fingerprint: vault.fingerprint(card.number) };
  await app.cardVelocity.beforeAttempt(velocity);
  const [claimed] = await app.db
    .update(cardRegistrations)
    .set({ attempts: sql`${cardRegistrations.attempts} + 1` })
    .where(
      and(
        eq(cardRegistrations.reference, row.reference),
        eq(cardRegistrations.status, 'pending'),
        sql`${cardRegistrations.attempts} < ${app.config.checkoutMaxAttempts}`,
      ),
    )
    .returning({ attempts: cardRegistrations.attempts });
  if (!claimed) return completeCardRegistration(app, token, card, clientIp, locale);
  const verified = await vault.verifyCard(card, { idempotencyKey: `card-registration:${row.reference}:${claimed.attempts}` });
  if (verified.status !== 'verified') {
    const { showReason } = await app.cardVelocity.afterDecline(velocity);
    const code = showReason ? verified.code : 'card_declined';
    throw new DomainError('ER.11.30', 'Card verification failed', { data: { decline_code: code }, messages: { card: [declineMessages[code]] } });
  }
  const now = app.now();
  // Completed meanwhile by a concurrent submit: what it recorded is reported.
  const activated = await activateRegistration(
    app,
    eq(cardRegistrations.reference, row.reference),
    { ...activeCardColumns(verified, card.holderName, now), locale: locale ?? null },
    now,
  );
  return activated!;
}

/** GET /api/v1/card-registrations: newest first, by state or customer e-mail. */
export function listCardRegistrations(app: DomainContext, integrator: Pick<Integrator, 'id'>, query: CardRegistrationsQuery): Promise<Page<CardRegistration>> {
  return keysetPage(
    app.db,
    {
      table: cardRegistrations,
      id: cardRegistrations.reference,
      createdAt: cardRegistrations.createdAt,
      scope: eq(cardRegistrations.integratorId, integrator.id),
      idPattern: UUID,
    },
    [
      query.status ? eq(cardRegistrations.status, query.status) : undefined,
      query.customer_email !== undefined ? sql`lower(${cardRegistrations.customerEmail}) = ${query.customer_email.toLowerCase()}` : undefined,
    ],
    query,
  );
}
