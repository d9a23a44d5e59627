import { eq } from 'drizzle-orm';
import type { MethodSimulator, SimulatedMethodPayment } from '../../acquirer/connector.ts';
import { checkoutSessions } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { findLinkById } from '../links/service.ts';
import { syncProviderSession } from './provider-pay.ts';

/**
 * The sandbox's customer side of the local methods: the "Scan to pay" page a QR Ph
 * code opens, and the authorisation page the e-wallets, banks and BillEase send the customer to.
 * They act through the connector's `simulator` (only the sandbox has one); an answer is recorded
 * on the checkout at once, as a provider's webhook would.
 */

export interface SimulatedPaymentView {
  payment: SimulatedMethodPayment;
  merchantName: string;
  /** The customer's language on the checkout, when they chose one. */
  locale: string | null;
}

/** The simulator of the acquirer that simulates the customer's side (the sandbox's). */
const simulatorOf = (app: DomainContext): MethodSimulator | undefined => app.connectors.forSettings('', { provider: 'sandbox' }).simulator;

/** A sandbox payment id as the sandbox makes them: anything else is not looked up. */
const SIMULATED_ID = /^sbp_[0-9a-f]{24}$/;

export async function simulatedPayment(app: DomainContext, providerPaymentId: string): Promise<SimulatedPaymentView | undefined> {
  const simulator = simulatorOf(app);
  if (!simulator || !SIMULATED_ID.test(providerPaymentId)) return undefined;
  const payment = await simulator.payment(providerPaymentId);
  if (!payment) return undefined;
  const [session] = await app.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, payment.reference));
  const link = session ? await findLinkById(app.db, session.linkId) : undefined;
  return { payment, merchantName: link?.merchant.name ?? '', locale: session?.locale ?? null };
}

/**
 * The customer approves, declines or lets the payment expire. Counted like a payment attempt
 * from the customer's address (the velocity limits); a payment no longer waiting (paid, ended,
 * replaced by a new code) is not changed. Returns the payment as it now stands.
 */
export async function answerSimulatedPayment(
  app: DomainContext,
  providerPaymentId: string,
  answer: 'approve' | 'decline' | 'expire',
  clientIp: string,
): Promise<SimulatedPaymentView | undefined> {
  const simulator = simulatorOf(app);
  if (!simulator || !SIMULATED_ID.test(providerPaymentId)) return undefined;
  const before = await simulator.payment(providerPaymentId);
  if (!before) return undefined;
  await app.cardVelocity.beforeAttempt({ clientIp, scope: `sandbox:${before.reference}`, open: true, fingerprint: `sandbox:${providerPaymentId}` });
  await simulator.answer(providerPaymentId, answer);
  const [session] = await app.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, before.reference));
  if (session?.providerPaymentId === providerPaymentId) {
    try {
      await syncProviderSession(app, session);
    } catch (error) {
      app.log.warn('sandbox: recording the answer failed; the checkout syncs it later', { sessionId: session.id, error });
    }
  }
  return simulatedPayment(app, providerPaymentId);
}
