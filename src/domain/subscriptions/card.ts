import { and, eq, sql } from 'drizzle-orm';
import { declineMessages } from '../../acquirer/acquirer.ts';
import { newUrlToken } from '../../crypto.ts';
import { cardRegistrations, links, schedules } from '../../db/schema.ts';
import { cardSchema, expiryInFuture, parseExpiry } from '../../schemas/card.ts';
import { parseWith } from '../../schemas/parse.ts';
import { activeCardColumns } from '../cards/activation.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, invalidFields } from '../errors.ts';
import type { Subscriber } from './access.ts';

/**
 * The customer gives another card for a subscription from their page: the acquirer's vault
 * verifies and keeps it, and the registration the schedule charges holds the new card from the
 * next charge on (its old card stays in the vault's history, never charged again). Only a
 * saved-card subscription of this customer, and only with an acquirer whose vault takes a typed
 * card (the sandbox; Stripe's card is replaced through its own form: ./card-setup.ts); the
 * velocity limits of the card forms apply.
 */
/** The registration a subscription of this customer charges; ER.07.01 when the subscription is not theirs. */
export async function subscriberRegistration(app: DomainContext, who: Subscriber, scheduleId: string) {
  const [row] = await app.db
    .select({
      reference: cardRegistrations.reference,
      collection: cardRegistrations.collection,
      integratorId: cardRegistrations.integratorId,
      status: cardRegistrations.status,
      cardToken: cardRegistrations.cardToken,
      cardCustomer: cardRegistrations.cardCustomer,
      customerName: cardRegistrations.customerName,
      customerEmail: cardRegistrations.customerEmail,
    })
    .from(schedules)
    .innerJoin(cardRegistrations, eq(cardRegistrations.reference, schedules.cardRegistrationReference))
    .innerJoin(links, eq(links.id, schedules.linkId))
    .where(and(eq(schedules.id, scheduleId), eq(schedules.integratorId, who.integratorId), sql`lower(${cardRegistrations.customerEmail}) = ${who.email}`));
  if (!row)
    throw new DomainError('ER.07.01', 'Subscription not found', { httpStatus: 404, messages: { subscription: ['This subscription is not one of yours.'] } });
  return row;
}

export async function replaceSubscriberCard(app: DomainContext, who: Subscriber, scheduleId: string, input: unknown, clientIp: string) {
  const parsed = parseWith(cardSchema, input, 'card');
  if (!parsed.ok) throw invalidFields(parsed.messages);
  const expiry = parseExpiry(parsed.value.expiry)!;
  if (!expiryInFuture(expiry, app.now())) throw invalidFields({ 'card.expiry': ['This card has expired: check the expiry date'] });
  const row = await subscriberRegistration(app, who, scheduleId);
  const { vault } = await app.connectors.forIntegrator(row.integratorId);
  if (!vault || row.collection !== 'saved_card') {
    throw new DomainError('ER.03.26', 'Card form not available', { messages: { '(request)': ['This subscription does not take a card here.'] } });
  }
  const card = { number: parsed.value.number, expMonth: expiry.month, expYear: expiry.year, cvc: parsed.value.cvc, holderName: parsed.value.name };
  await app.cardVelocity.beforeAttempt({ clientIp, scope: `registration:${row.integratorId}`, open: false, fingerprint: vault.fingerprint(card.number) });
  const verified = await vault.verifyCard(card, { idempotencyKey: `subscription-card:${row.reference}:${newUrlToken()}` });
  if (verified.status !== 'verified') {
    throw new DomainError('ER.11.30', 'Card verification failed', {
      data: { decline_code: verified.code },
      messages: { card: [declineMessages[verified.code]] },
    });
  }
  const now = app.now();
  const { status: _active, activatedAt: _at, ...columns } = activeCardColumns(verified, card.holderName, now);
  await app.db
    .update(cardRegistrations)
    .set(columns)
    .where(and(eq(cardRegistrations.reference, row.reference), eq(cardRegistrations.status, 'active')));
  return { brand: verified.brand, last4: verified.last4 };
}
