import { and, eq } from 'drizzle-orm';
import type { CardInput, VerifyResult } from '../../acquirer/acquirer.ts';
import type { SetupCard } from '../../acquirer/connector.ts';
import { newId, newUuid, sha256Hex } from '../../crypto.ts';
import type { CheckoutSession, Link, Schedule } from '../../db/schema.ts';
import { cardRegistrations, schedules } from '../../db/schema.ts';
import type { Locale } from '../../i18n/index.ts';
import { activateRegistration, activeCardColumns } from '../cards/activation.ts';
import type { DomainContext } from '../context.ts';
import { recordEvent } from '../notifications/domain-events.ts';
import { nextRunAfter, occurrenceAtOrAfter, recurrenceFields } from '../schedules/recurrence.ts';
import { planRecurrence, trialEnd } from './plan.ts';

/**
 * A subscription link paid (or, with a trial, its card given): the customer's registration and a
 * schedule with `link_id`, through the same tables, scheduler, events and pages as a schedule an
 * integrator signs (docs/subscriptions.md). A card the acquirer keeps for off-session charges
 * (the sandbox's vault, or Stripe's payment method saved with the payment) becomes a saved-card
 * registration; any other way of paying (QR Ph, e-wallets, a card the acquirer did not keep) a
 * pay-by-link registration, whose occurrences are
 * payment links e-mailed to the customer (src/domain/schedules/pay-links.ts), so it needs the
 * customer's e-mail. One checkout session starts at most one subscription (its hash is the
 * schedule's payload hash, unique per integrator).
 */
export interface SubscriptionStart {
  link: Pick<Link, 'id' | 'integratorId' | 'subscription' | 'title' | 'description' | 'callbackUrl' | 'amountMinor' | 'currency'>;
  session: Pick<CheckoutSession, 'id'>;
  /** The customer's values as the payment recorded them (name, e-mail). */
  customerValues: Record<string, string>;
  /** The card typed on the page, when the acquirer's vault can keep it. */
  card?: CardInput;
  /** The typed card, already verified into the vault by the page (a trial's check): not verified again. */
  verified?: Extract<VerifyResult, { status: 'verified' }>;
  /** The card the acquirer kept with the payment itself (Stripe: the intent's payment method on its customer). */
  savedCard?: SetupCard;
  /** When the customer paid or, with a trial, subscribed. */
  at: Date;
  /** The first payment was made (false: a trial, nothing charged yet). */
  paid: boolean;
  locale?: Locale | null;
}

export type SubscriptionStarted = { schedule: Schedule; registrationReference: string } | { skipped: 'not_subscription' | 'no_email' | 'card_not_kept' };

export const sessionHash = (sessionId: string) => sha256Hex(`paylink-subscription:${sessionId}`);

export async function startLinkSubscription(app: DomainContext, start: SubscriptionStart): Promise<SubscriptionStarted> {
  const plan = start.link.subscription;
  if (!plan || start.link.amountMinor === null) return { skipped: 'not_subscription' };
  const integratorId = start.link.integratorId;
  const [seen] = await app.db
    .select()
    .from(schedules)
    .where(and(eq(schedules.integratorId, integratorId), eq(schedules.payloadHash, sessionHash(start.session.id))));
  if (seen) return { schedule: seen, registrationReference: seen.cardRegistrationReference };
  const email = start.customerValues['customer.contact.email'] ?? null;
  const name = [start.customerValues['customer.first_name'], start.customerValues['customer.last_name']].filter(Boolean).join(' ') || null;
  const { vault, capabilities } = await app.connectors.forIntegrator(integratorId);
  const keepsCard = start.card !== undefined && vault !== undefined && capabilities.offSession === 'native';
  const keptCard = capabilities.offSession === 'native' ? start.savedCard : undefined;
  if (!keepsCard && !keptCard && !email) return { skipped: 'no_email' };
  const now = app.now();
  const reference = newUuid();
  await app.db.insert(cardRegistrations).values({
    reference,
    integratorId,
    status: 'pending',
    customerName: name,
    customerEmail: email,
    callbackUrl: start.link.callbackUrl,
    collection: keepsCard || keptCard ? 'saved_card' : 'pay_link',
    createdAt: now,
  });
  let columns: Parameters<typeof activateRegistration>[2] = { status: 'active', activatedAt: now, locale: start.locale ?? null };
  if (keptCard) columns = { ...activeCardColumns(keptCard, null, now), cardCustomer: keptCard.customer, locale: start.locale ?? null };
  if (keepsCard) {
    // The card the customer just typed, kept by the acquirer for the next periods (for a trial: its only check).
    const verified = start.verified ?? (await vault.verifyCard(start.card!, { idempotencyKey: `subscription:${start.session.id}` }));
    if (verified.status !== 'verified') {
      app.log.warn('subscription: the card was not kept', { sessionId: start.session.id, code: verified.code });
      return { skipped: 'card_not_kept' };
    }
    columns = { ...activeCardColumns(verified, start.card!.holderName, now), locale: start.locale ?? null };
  }
  await activateRegistration(app, eq(cardRegistrations.reference, reference), columns, now);
  return { schedule: await insertSubscriptionSchedule(app, start, reference, now), registrationReference: reference };
}

async function insertSubscriptionSchedule(app: DomainContext, start: SubscriptionStart, reference: string, now: Date): Promise<Schedule> {
  const plan = start.link.subscription!;
  // The first payment is the first cycle; with a trial, the first charge is when it ends.
  const anchor = start.paid || !plan.trial_days ? start.at : trialEnd(start.at, plan.trial_days);
  const recurrence = planRecurrence(plan, anchor);
  const cronPattern = recurrenceFields.map((f) => recurrence[f]).join(' ');
  const cyclesLeft = plan.cycles === undefined ? null : start.paid ? plan.cycles - 1 : plan.cycles;
  // The anchor's own occurrence counts the periods (paid on the 30th: that month's last day).
  const anchorAt = occurrenceAtOrAfter({ cronPattern, offsetMinutes: 0 }, anchor);
  const every = plan.every;
  const nextRunAt =
    cyclesLeft === 0 ? null : start.paid && anchorAt ? nextRunAfter({ cronPattern, offsetMinutes: 0, every, anchorAt }, anchorAt, anchorAt) : anchor;
  return app.db.transaction(async (tx) => {
    const [card] = await tx
      .select({ customerName: cardRegistrations.customerName, customerEmail: cardRegistrations.customerEmail })
      .from(cardRegistrations)
      .where(eq(cardRegistrations.reference, reference));
    const [schedule] = await tx
      .insert(schedules)
      .values({
        id: newId('sch'),
        integratorId: start.link.integratorId,
        cardRegistrationReference: reference,
        status: 'active',
        recurrence,
        cronPattern,
        timeOffset: '+00:00',
        amountMinor: start.link.amountMinor!,
        currency: start.link.currency,
        description: start.link.description ?? start.link.title,
        callbackUrl: start.link.callbackUrl,
        notifyUser: true,
        payloadHash: sessionHash(start.session.id),
        nextRunAt,
        linkId: start.link.id,
        cyclesLeft,
        trialEndsAt: start.paid ? null : nextRunAt,
        every,
        anchorAt: every > 1 ? anchorAt : null,
        createdAt: now,
      })
      .returning();
    await recordEvent(app.presentEvent, tx, {
      integratorId: start.link.integratorId,
      event: { type: 'schedule.created', schedule: schedule!, offsetMinutes: 0, customer: card!, ...(start.paid ? {} : { trial: true }) },
      callbackUrl: start.link.callbackUrl,
      // A trial's customer paid nothing, so no receipt tells them it started: this e-mail does.
      emailTo: start.paid ? null : card!.customerEmail,
      now,
    });
    return schedule!;
  });
}
