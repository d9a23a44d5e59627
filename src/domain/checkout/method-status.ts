import { eq } from 'drizzle-orm';
import { payments } from '../../db/schema.ts';
import type { PaymentMethod } from '../../schemas/payment-method.ts';
import type { DomainContext } from '../context.ts';
import { checkoutQrCode, type QrCode, type QrFormat } from '../links/qr.ts';
import { syncSetupTrial } from '../subscriptions/trial-setup.ts';
import { endOpenMethodAttempt, openMethodAttempt } from './method-pay.ts';
import { syncProviderSession } from './provider-pay.ts';
import { checkoutPath, findSessionByToken, sessionState } from './sessions.ts';

/**
 * Where a method attempt stands, for the page that waits on it: the status the QR page polls (the
 * acquirer asked at most every few seconds per session), the return from the provider's page, and
 * the QR code's image. The attempt itself starts in method-pay.ts.
 */

/** Where a checkout stands, for the payment page's poll and its no-script "I have paid" button. */
export interface CheckoutStatus {
  status: 'open' | 'awaiting_scan' | 'processing' | 'succeeded' | 'declined' | 'expired' | 'locked';
  method?: PaymentMethod;
  /** awaiting_scan: the code and until when it can be paid. */
  qr?: { content: string; expiresAt: Date };
  /** succeeded: the receipt (the checkout page). */
  receiptPath?: string;
  /** declined: why the last attempt ended (`expired`, `cancelled`, a card's decline code). */
  declineCode?: string;
}

/** The status is polled: the acquirer is asked about a session at most this often (per process). */
export const STATUS_SYNC_EVERY_MS = 3000;
const lastSynced = new Map<string, number>();
const LAST_SYNCED_MAX = 10_000;

/** Whether to ask the acquirer now, and note that we did (the oldest entries are forgotten first). */
function maySync(sessionId: string, now: number): boolean {
  const last = lastSynced.get(sessionId);
  if (last !== undefined && now - last < STATUS_SYNC_EVERY_MS) return false;
  lastSynced.delete(sessionId);
  lastSynced.set(sessionId, now);
  if (lastSynced.size > LAST_SYNCED_MAX) lastSynced.delete(lastSynced.keys().next().value!);
  return true;
}

/**
 * GET /checkout/{token}/status: the session's state, after asking the acquirer about an attempt
 * in flight (at most every STATUS_SYNC_EVERY_MS, the "I have paid" button too). A failed sync is
 * logged and the stored state answered: polling never fails.
 */
export async function checkoutStatus(app: DomainContext, token: string): Promise<CheckoutStatus | undefined> {
  let session = await findSessionByToken(app.db, token);
  if (!session) return undefined;
  if (session.status === 'open' && session.processingAt && session.providerPaymentId && maySync(session.id, Date.now())) {
    try {
      await syncProviderSession(app, session);
      session = (await findSessionByToken(app.db, token)) ?? session;
    } catch (error) {
      app.log.warn('checkout status: sync failed', { sessionId: session.id, error });
    }
  }
  const attempt = session.providerAttempt;
  const method = attempt?.method ?? 'card';
  if (session.status === 'paid') {
    const [paid] = session.paymentId ? await app.db.select({ method: payments.paymentMethod }).from(payments).where(eq(payments.id, session.paymentId)) : [];
    return { status: 'succeeded', method: paid?.method ?? method, receiptPath: checkoutPath(token) };
  }
  const state = sessionState(session, app.now());
  if (state === 'locked' || state === 'expired') return { status: state };
  const open = openMethodAttempt(session);
  if (open) {
    if (open.qr) return { status: 'awaiting_scan', method: open.method, qr: { content: open.qr.content, expiresAt: new Date(open.qr.expiresAt) } };
    return { status: 'processing', method: open.method };
  }
  if (session.processingAt) return { status: 'processing', method };
  // The current attempt's transaction, by its idempotency key (unique): declined when it ended without money.
  const [last] = await app.db
    .select({ status: payments.status, method: payments.paymentMethod, declineCode: payments.failureCode })
    .from(payments)
    .where(eq(payments.idempotencyKey, `checkout:${session.id}:${session.attempts}`));
  if (last?.status === 'failed') return { status: 'declined', method: last.method, ...(last.declineCode ? { declineCode: last.declineCode } : {}) };
  return { status: 'open' };
}

/**
 * GET /checkout/{token}/return: the customer is back from 3-D Secure or a method's authorisation
 * page. The attempt is synced (a few more times while the provider is still settling it); a local
 * method's attempt still waiting means the customer came back without paying, and it is ended
 * (`cancelled`) so they can choose again. Answers the checkout page's address, with
 * `?payment=<decline code>` when a local method's attempt ended without money.
 */
export async function returnFromProvider(app: DomainContext, token: string): Promise<string> {
  const session = await findSessionByToken(app.db, token);
  if (!session) return checkoutPath(token);
  const open = openMethodAttempt(session);
  try {
    // A free trial's card setup (src/domain/subscriptions/trial-setup.ts): started once it succeeded.
    if (session.providerAttempt?.setupId) {
      await syncSetupTrial(app, session);
      return checkoutPath(token);
    }
    let state = await syncProviderSession(app, session);
    // Right after the provider's page it may still say "processing" (or, for a moment, still wait): ask again for a few seconds.
    for (let i = 0; i < 6 && (state?.status === 'processing' || (open && state?.status === 'requires_action')); i++) {
      await new Promise((r) => setTimeout(r, 500));
      state = await syncProviderSession(app, session);
    }
    if (open && (state?.status === 'requires_action' || state?.status === 'awaiting_scan') && open.redirectUrl) {
      const fresh = await findSessionByToken(app.db, token);
      if (fresh) await endOpenMethodAttempt(app, fresh);
    }
  } catch (error) {
    // The webhook or the reconciliation pass records it; the page says where it stands.
    app.log.warn('provider return: sync failed', { sessionId: session.id, error });
  }
  // The attempt may have been recorded before the customer got back (a webhook, the sandbox's answer).
  const attempt = session.providerAttempt;
  if (!attempt?.method || attempt.method === 'card' || attempt.attempt !== session.attempts) return checkoutPath(token);
  const status = await checkoutStatus(app, token);
  return status?.status === 'declined' && status.declineCode ? `${checkoutPath(token)}?payment=${encodeURIComponent(status.declineCode)}` : checkoutPath(token);
}

/** The QR Ph code a checkout's waiting attempt shows, to draw (GET /checkout/{token}/qr.svg|png); undefined when none waits. */
export async function findCheckoutQrCode(app: DomainContext, token: string, format: QrFormat): Promise<QrCode | undefined> {
  const session = await findSessionByToken(app.db, token);
  const open = session && session.status === 'open' ? openMethodAttempt(session) : undefined;
  return open?.qr ? checkoutQrCode(open.qr.content, format) : undefined;
}
