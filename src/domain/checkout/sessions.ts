import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { newId, newUrlToken, sha256Hex } from '../../crypto.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { CardRegistration, CheckoutSession, Payment, Schedule } from '../../db/schema.ts';
import { cardRegistrations, checkoutSessions, outboxEvents, payments, schedules } from '../../db/schema.ts';
import type { Item } from '../../schemas/link-sale.ts';
import type { DomainContext } from '../context.ts';
import { linkAvailability } from '../links/lifecycle.ts';
import type { LinkWithMerchant } from '../links/service.ts';
import { type ReceiptEmail, receiptEmailOf } from '../notifications/receipt-email.ts';
import { sessionHash } from '../subscriptions/start.ts';

/** How long an attempt may stay at the acquirer before another submit may try again. */
export const PROCESSING_LEASE_MS = 120_000;

export type { CheckoutSession } from '../../db/schema.ts';

/**
 * A checkout session is one customer's attempt to pay one link. Dynamic sessions are created by
 * the integrator's POST; static sessions by the customer's first submit on /pay/{slug}, with the
 * ticket the server issued when it rendered the page (below). Only the token's hash is stored;
 * the token is the session's address (/checkout/{token}), 256 bits from the CSPRNG.
 */
export const hashSessionToken = (token: string) => sha256Hex(`paylink-checkout:${token}`);
export const newSessionToken = newUrlToken;
export const checkoutPath = (token: string) => `/checkout/${token}`;

/** Shape of a session token (43 base64url characters = 256 bits). */
const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * A static link's page carries a ticket the server issued: `<token>.<issued at>.<mac>`, the
 * session token, the issue time (Unix seconds) and an HMAC over both and the link's id, under a
 * key derived from the master key. Rendering a page stores nothing (page views cannot fill the
 * database); the first valid submit creates the session named by the token. A ticket the server
 * did not issue, or issued for another link, is refused; so is one older than the checkout TTL
 * that never became a session. Reloading the page gets a fresh ticket: the velocity limits
 * (src/api/rate-limits.ts), not the ticket, stop a client that does that to try more cards.
 */
const STATIC_TICKET = /^([A-Za-z0-9_-]{43})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;
/** A ticket issued this far ahead of the server's clock (another process's clock) is still accepted. */
const TICKET_CLOCK_SKEW_SECONDS = 300;

const ticketData = (linkId: string, token: string, issuedAt: string) => `static-session/v1|${linkId}|${token}|${issuedAt}`;

export function issueStaticTicket(app: DomainContext, linkId: string): string {
  const token = newSessionToken();
  const issuedAt = String(Math.floor(app.now().getTime() / 1000));
  return `${token}.${issuedAt}.${app.staticSessionMac.sign(ticketData(linkId, token, issuedAt))}`;
}

export type OpenedTicket = { ok: true; token: string; stale: boolean } | { ok: false; reason: 'malformed' | 'not_issued' };

/** Checks a ticket against the link it is presented to. */
export function openStaticTicket(app: DomainContext, linkId: string, ticket: string): OpenedTicket {
  const match = STATIC_TICKET.exec(ticket);
  if (!match) return { ok: false, reason: 'malformed' };
  const [, token, issuedAt, mac] = match as unknown as [string, string, string, string];
  if (!app.staticSessionMac.verify(ticketData(linkId, token, issuedAt), mac)) return { ok: false, reason: 'not_issued' };
  const ageSeconds = app.now().getTime() / 1000 - Number(issuedAt);
  if (ageSeconds < -TICKET_CLOCK_SKEW_SECONDS) return { ok: false, reason: 'not_issued' };
  return { ok: true, token, stale: ageSeconds > app.config.checkoutTtlSeconds };
}

export type SessionState = 'open' | 'paid' | 'expired' | 'locked';

export function sessionState(session: CheckoutSession, now: Date): SessionState {
  if (session.status === 'paid') return 'paid';
  if (session.status === 'locked') return 'locked';
  if (session.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'open';
}

const byTokenHash = new WeakMap<object, ReturnType<typeof prepareByTokenHash>>();
const prepareByTokenHash = (db: Db) =>
  db
    .select()
    .from(checkoutSessions)
    .where(eq(checkoutSessions.tokenHash, sql.placeholder('hash')))
    .prepare('paylink_checkout_by_token');

export async function findSessionByToken(db: Db, token: string): Promise<CheckoutSession | undefined> {
  if (!SESSION_TOKEN.test(token)) return undefined;
  let statement = byTokenHash.get(db);
  if (!statement) byTokenHash.set(db, (statement = prepareByTokenHash(db)));
  const [row] = await statement.execute({ hash: hashSessionToken(token) });
  return row;
}

export interface NewSession {
  linkId: string;
  integratorId: string;
  kind: 'static' | 'dynamic';
  amountMinor: bigint | null;
  currency: string;
  description: string | null;
  merchantReferenceId?: string | null;
  systemValues?: Record<string, string>;
  /** Items a dynamic link's integrator sent; absent: the link's own. */
  items?: Item[] | null;
  callbackUrl?: string | null;
  successUrl?: string | null;
  cancelUrl?: string | null;
  notifyUser: boolean;
  /** Default: PAYLINK_CHECKOUT_TTL_SECONDS from now. */
  expiresAt?: Date;
  /** The schedule occurrence this session collects (a payment link e-mailed each cycle). */
  scheduleRunId?: string;
}

/** Inserts a session for `token` unless one exists already (two first submits at once make one). */
export async function insertSession(app: DomainContext, db: DbOrTx, token: string, values: NewSession): Promise<CheckoutSession> {
  const now = app.now();
  const tokenHash = hashSessionToken(token);
  await db
    .insert(checkoutSessions)
    .values({
      id: newId('cs'),
      tokenHash,
      linkId: values.linkId,
      integratorId: values.integratorId,
      kind: values.kind,
      amountMinor: values.amountMinor,
      currency: values.currency,
      description: values.description,
      merchantReferenceId: values.merchantReferenceId ?? null,
      systemValues: values.systemValues ?? {},
      items: values.items ?? null,
      callbackUrl: values.callbackUrl ?? null,
      successUrl: values.successUrl ?? null,
      cancelUrl: values.cancelUrl ?? null,
      notifyUser: values.notifyUser,
      scheduleRunId: values.scheduleRunId ?? null,
      expiresAt: values.expiresAt ?? new Date(now.getTime() + app.config.checkoutTtlSeconds * 1000),
      createdAt: now,
    })
    .onConflictDoNothing({ target: checkoutSessions.tokenHash });
  const [row] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.tokenHash, tokenHash));
  return row!;
}

export async function findPayment(db: DbOrTx, id: string): Promise<Payment | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row;
}

/** What GET /checkout/{token} shows. */
export type CheckoutView =
  | { state: 'not_found' }
  | { state: 'open' | 'expired' | 'locked' | 'used_up' | 'not_accepted' | 'suspended'; session: CheckoutSession; link: LinkWithMerchant }
  | { state: 'paid'; session: CheckoutSession; link: LinkWithMerchant; payment: Payment; receiptEmail?: ReceiptEmail }
  /** A free trial started on the session: no payment, the subscription's schedule and card instead. */
  | {
      state: 'trial';
      session: CheckoutSession;
      link: LinkWithMerchant;
      schedule: Schedule;
      card: Pick<CardRegistration, 'brand' | 'last4'> | undefined;
      email?: ReceiptEmail;
    };

export async function loadCheckout(app: DomainContext, token: string): Promise<CheckoutView> {
  const session = await app.sessionCache.find(token);
  if (!session) return { state: 'not_found' };
  const link = await app.linkCache.findById(session.linkId);
  if (!link) return { state: 'not_found' };
  const state = sessionState(session, app.now());
  if (state === 'paid') {
    const payment = session.paymentId ? await findPayment(app.db, session.paymentId) : undefined;
    if (!payment) return (await trialOf(app, session, link)) ?? { state: 'not_found' };
    return { state, session, link, payment, receiptEmail: await receiptEmailOf(app.db, payment) };
  }
  if (state !== 'open') return { state, session, link };
  // An unpaid session of a link that was switched off, has expired or is used up cannot be paid.
  const availability = await linkAvailability(app.db, link.link, app.now(), session.id);
  if (availability === 'inactive') return { state: 'not_found' };
  // A suspended merchant's checkout says so instead of showing its form (src/domain/integrators/suspension.ts).
  return { state: availability === 'open' && link.merchant.suspended ? 'suspended' : availability, session, link };
}

/** A session closed by a free trial's start (src/domain/subscriptions/trial.ts): the schedule it started, found by the session's hash. */
async function trialOf(app: DomainContext, session: CheckoutSession, link: LinkWithMerchant): Promise<CheckoutView | undefined> {
  const [row] = await app.db
    .select({ schedule: schedules, card: { brand: cardRegistrations.brand, last4: cardRegistrations.last4 } })
    .from(schedules)
    .leftJoin(cardRegistrations, eq(cardRegistrations.reference, schedules.cardRegistrationReference))
    .where(and(eq(schedules.integratorId, session.integratorId), eq(schedules.payloadHash, sessionHash(session.id))));
  if (!row) return undefined;
  // The e-mail that said the trial started (src/domain/subscriptions/start.ts), and how far it got.
  const [mail] = await app.db
    .select({ to: outboxEvents.emailTo, state: outboxEvents.emailState })
    .from(outboxEvents)
    .where(
      and(
        eq(outboxEvents.integratorId, session.integratorId),
        eq(outboxEvents.type, 'schedule.created'),
        isNotNull(outboxEvents.emailTo),
        sql`${outboxEvents.emailView}->>'scheduleReference' = ${row.schedule.id}`,
      ),
    )
    .limit(1);
  const email = mail?.to ? { to: mail.to, state: mail.state } : undefined;
  return { state: 'trial', session, link, schedule: row.schedule, card: row.card ?? undefined, ...(email ? { email } : {}) };
}
