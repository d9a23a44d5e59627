import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { OutboxEvent } from '../../db/schema.ts';
import { assets, cardRegistrations, checkoutSessions, integrators, links, outboxEvents, payments, schedules } from '../../db/schema.ts';
import { isLocale } from '../../i18n/index.ts';
import { isEmailAddress } from '../../schemas/email-rules.ts';
import type { MerchantView } from './email/templates.ts';
import { EMPTY_EMAIL_VIEW, type EmailView } from './email/view.ts';
import { claimDue } from './outbox.ts';
import { nextRetry } from './retry.ts';

/**
 * The e-mail side of the outbox, in the database: claim due e-mails under a lease, look up the
 * merchant (name, logo) at send time, record the outcome. Sending happens in the mailer worker,
 * outside any transaction. A bad recipient fails its own e-mail only.
 */
export const claimDueEmails = (db: Db, opts: { now: Date; leaseMs: number; limit: number }): Promise<OutboxEvent[]> => claimDue(db, 'email', opts);

/** A recipient nodemailer can address: one plain address, no display name or list; the rule every form takes addresses by. */
export const isDeliverableAddress = (to: string | null | undefined): to is string => typeof to === 'string' && isEmailAddress(to);

/**
 * What an e-mail needs beyond the event's EmailView, looked up at send time: the merchant (the
 * integrator's name; its support address, else its contact address, as Reply-To; and, when the
 * payment came from a link, that link's logo, colour and language, and its title: what was bought) and the payment's masked card
 * when the event does not carry it (refund events). The language: the customer's when they named
 * one of ours (on the checkout, or on the page where they registered the card a schedule charges),
 * else the link's.
 */
export async function emailContext(
  db: Db,
  event: { integratorId: string; view: Pick<EmailView, 'transactionId' | 'scheduleReference' | 'locale'> },
): Promise<{ merchant: MerchantView; card?: { brand: string | null; last4: string | null }; item?: string }> {
  const [integrator] = await db
    .select({ name: integrators.name, email: integrators.email, supportEmail: integrators.supportEmail })
    .from(integrators)
    .where(eq(integrators.id, event.integratorId));
  const merchant: MerchantView = { name: integrator?.name ?? 'paylink', replyTo: integrator?.supportEmail ?? integrator?.email ?? undefined };
  const { transactionId, scheduleReference } = event.view;
  let card: { brand: string | null; last4: string | null } | undefined;
  let logoAssetId: string | null | undefined;
  let item: string | undefined;
  if (transactionId) {
    const [row] = await db
      .select({
        logoAssetId: links.logoAssetId,
        linkTitle: links.title,
        brandColor: links.brandColor,
        linkLocale: links.locale,
        customerLocale: checkoutSessions.locale,
        cardholderLocale: cardRegistrations.locale,
        brand: payments.cardBrand,
        last4: payments.cardLast4,
      })
      .from(payments)
      .leftJoin(links, eq(links.id, payments.linkId))
      .leftJoin(checkoutSessions, eq(checkoutSessions.id, payments.checkoutSessionId))
      .leftJoin(cardRegistrations, eq(cardRegistrations.reference, payments.cardRegistrationReference))
      .where(and(eq(payments.id, transactionId), eq(payments.integratorId, event.integratorId)));
    logoAssetId = row?.logoAssetId;
    item = row?.linkTitle ?? undefined;
    merchant.color = row?.brandColor;
    // As on the page: the customer's language when they named one of ours, else the link's.
    const locale = row?.customerLocale ?? row?.cardholderLocale ?? row?.linkLocale;
    if (isLocale(locale)) merchant.locale = locale;
    if (row?.last4) card = { brand: row.brand, last4: row.last4 };
  } else if (scheduleReference) {
    // A schedule's own events (suspended, cancelled): the language of the card's registration.
    const [row] = await db
      .select({ locale: cardRegistrations.locale })
      .from(schedules)
      .innerJoin(cardRegistrations, eq(cardRegistrations.reference, schedules.cardRegistrationReference))
      .where(and(eq(schedules.id, scheduleReference), eq(schedules.integratorId, event.integratorId)));
    if (isLocale(row?.locale)) merchant.locale = row.locale;
  }
  // An e-mail the customer asked for from a page speaks that page's language.
  if (isLocale(event.view.locale)) merchant.locale = event.view.locale;
  if (logoAssetId) {
    const [asset] = await db.select({ contentType: assets.contentType, bytes: assets.bytes }).from(assets).where(eq(assets.id, logoAssetId));
    if (asset) merchant.logo = asset;
  }
  return { merchant, card, item };
}

/** The view written with an e-mail's event (every event written with a recipient has one). */
export const storedEmailView = (event: Pick<OutboxEvent, 'emailView'>): EmailView => event.emailView ?? EMPTY_EMAIL_VIEW;

/** A delivered e-mail, or one written as a file because no mail server is set (`savedAsFile`): state `saved`. */
export type MailOutcome = { ok: true; savedAsFile?: boolean } | { ok: false; error: string; permanent: boolean };

export async function recordEmailOutcome(
  db: Db,
  opts: { eventId: string; outcome: MailOutcome; now: Date; schedule: readonly number[]; random?: () => number },
): Promise<{ attempt: number; state: OutboxEvent['emailState']; nextAt: Date | null }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ attempts: outboxEvents.emailAttempts, state: outboxEvents.emailState })
      .from(outboxEvents)
      .where(eq(outboxEvents.id, opts.eventId))
      .for('update');
    if (!row) throw new Error(`outbox event ${opts.eventId} vanished`);
    const attempt = row.attempts + 1;
    if (row.state !== 'pending') {
      await tx.update(outboxEvents).set({ emailAttempts: attempt }).where(eq(outboxEvents.id, opts.eventId));
      return { attempt, state: row.state, nextAt: null };
    }
    if (opts.outcome.ok) {
      const state = opts.outcome.savedAsFile ? 'saved' : 'sent';
      await tx
        .update(outboxEvents)
        .set({ emailAttempts: attempt, emailState: state, emailSentAt: opts.now, emailNextAt: null, emailLockedUntil: null, emailLastError: null })
        .where(eq(outboxEvents.id, opts.eventId));
      return { attempt, state, nextAt: null };
    }
    const decision = opts.outcome.permanent
      ? ({ kind: 'give-up' } as const)
      : nextRetry({ attempt, schedule: opts.schedule, now: opts.now, random: opts.random });
    const state = decision.kind === 'retry' ? 'pending' : 'failed';
    const nextAt = decision.kind === 'retry' ? decision.at : null;
    await tx
      .update(outboxEvents)
      .set({ emailAttempts: attempt, emailState: state, emailNextAt: nextAt, emailLockedUntil: null, emailLastError: opts.outcome.error.slice(0, 500) })
      .where(eq(outboxEvents.id, opts.eventId));
    return { attempt, state, nextAt };
  });
}
