import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { CardSetupState } from '../../acquirer/connector.ts';
import { newUrlToken } from '../../crypto.ts';
import { cardRegistrations } from '../../db/schema.ts';
import { setupConnector } from '../cards/setup.ts';
import type { DomainContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import type { Subscriber } from './access.ts';
import { subscriberRegistration } from './card.ts';

/**
 * "Replace card" for a subscription whose acquirer takes the card in its own form (Stripe's
 * Payment Element in setup mode, the island of the card registration page: ../cards/setup.ts):
 *   1. the customer asks for the form: the acquirer makes a setup for off-session use on the
 *      customer the registration's card belongs to (the card forms' velocity limits apply);
 *   2. the page mounts the Element with the setup's client secret; the setup is read again on each
 *      view and must have been made for this subscription's registration;
 *   3. the browser confirms it and comes back to the return address (or the page is opened
 *      again): a succeeded setup puts its card on the registration, charged from the next
 *      occurrence on, and the old card is detached at the acquirer. A declined card changes
 *      nothing, and the same form takes another card.
 */

/** How the merchant's acquirer takes a new card: typed on paylink's form (a vault), in its own form (a setup), or not at all. */
export type SubscriberCardForm = 'typed' | 'setup' | null;

export async function subscriberCardForm(app: DomainContext, integratorId: string): Promise<SubscriberCardForm> {
  const connector = await app.connectors.forIntegrator(integratorId);
  if (connector.vault) return 'typed';
  return setupConnector(connector) && 'publicKey' in connector ? 'setup' : null;
}

const setupIdSchema = z.string().regex(/^seti_[A-Za-z0-9]{1,250}$/);

const unavailable = () =>
  new DomainError('ER.07.06', 'Card form unavailable', {
    httpStatus: 503,
    messages: { '(request)': ['The payment service could not be reached to prepare the card form. Try again in a moment.'] },
  });

const notTheirs = () =>
  new DomainError('ER.07.01', 'Subscription not found', {
    httpStatus: 404,
    messages: { subscription: ['This card form is not for one of your subscriptions.'] },
  });

/** The customer's saved-card subscription and the acquirer's setups; ER.03.26 when its card is not replaced this way. */
async function replaceable(app: DomainContext, who: Subscriber, scheduleId: string) {
  const row = await subscriberRegistration(app, who, scheduleId);
  const connector = await app.connectors.forIntegrator(row.integratorId);
  const setup = setupConnector(connector);
  if (!setup || !('publicKey' in connector) || row.collection !== 'saved_card' || row.status !== 'active') {
    throw new DomainError('ER.03.26', 'Card form not available', { messages: { '(request)': ['This subscription does not take a card here.'] } });
  }
  return { row, setup, publishableKey: String((connector as unknown as { publicKey: string }).publicKey) };
}

type Replaceable = Awaited<ReturnType<typeof replaceable>>;

/** Step 1: a new setup for this subscription's registration; the page then shows its form. */
export async function startCardReplacement(
  app: DomainContext,
  who: Subscriber,
  scheduleId: string,
  opts: { clientIp: string; returnUrl: string },
): Promise<{ setupId: string }> {
  const { row, setup } = await replaceable(app, who, scheduleId);
  await app.cardVelocity.beforeAttempt({
    clientIp: opts.clientIp,
    scope: `registration:${row.integratorId}`,
    open: false,
    fingerprint: `provider:${row.reference}`,
  });
  try {
    const started = await setup.createCardSetup(
      {
        reference: row.reference,
        ...(row.customerName ? { customerName: row.customerName } : {}),
        ...(row.customerEmail ? { customerEmail: row.customerEmail } : {}),
        ...(row.cardCustomer ? { customer: row.cardCustomer } : {}),
        returnUrl: opts.returnUrl,
      },
      // Each request its own setup: one that failed for good (canceled) is never handed back.
      { idempotencyKey: `subscription-card:${row.reference}:${newUrlToken()}` },
    );
    return { setupId: started.setupId };
  } catch (error) {
    app.log.warn('subscription: the card form could not be prepared', { registration: row.reference, error });
    throw unavailable();
  }
}

/** The setup read again; another registration's (or an unknown one) is not this customer's. */
async function readSetup(app: DomainContext, { row, setup }: Replaceable, setupId: unknown): Promise<CardSetupState> {
  const id = setupIdSchema.safeParse(setupId);
  if (!id.success) throw notTheirs();
  let state: CardSetupState;
  try {
    state = await setup.syncCardSetup(id.data);
  } catch (error) {
    app.log.warn('subscription: the card setup could not be read', { registration: row.reference, error });
    throw unavailable();
  }
  if (state.reference !== row.reference) throw notTheirs();
  return state;
}

/**
 * A succeeded setup's card on the registration, once: only while it still holds the card the
 * customer replaced (a second return, or the page and the return together, change nothing more).
 */
async function applyReplacement(app: DomainContext, { row, setup }: Replaceable, state: Extract<CardSetupState, { status: 'succeeded' }>) {
  if (row.cardToken === state.token) return;
  const [replaced] = await app.db
    .update(cardRegistrations)
    .set({
      cardToken: state.token,
      cardCustomer: state.customer,
      brand: state.brand,
      last4: state.last4,
      expMonth: state.expMonth,
      expYear: state.expYear,
      fingerprint: state.fingerprint,
    })
    .where(
      and(
        eq(cardRegistrations.reference, row.reference),
        eq(cardRegistrations.status, 'active'),
        row.cardToken ? eq(cardRegistrations.cardToken, row.cardToken) : isNull(cardRegistrations.cardToken),
      ),
    )
    .returning({ reference: cardRegistrations.reference });
  if (!replaced || !row.cardToken || !setup.forgetSavedCard) return;
  // The old card is never charged again by paylink; detached, it cannot be charged at the acquirer either.
  try {
    await setup.forgetSavedCard(
      { token: row.cardToken, ...(row.cardCustomer ? { customer: row.cardCustomer } : {}) },
      { idempotencyKey: `subscription-card-forget:${row.reference}:${state.setupId}` },
    );
  } catch (error) {
    app.log.warn('subscription: the replaced card was not detached at the acquirer', { registration: row.reference, error });
  }
}

export type CardReplacement =
  | { state: 'saved' }
  /** The form to show: the Element with the setup's secret; `failure`: why the last card was not saved. */
  | { state: 'open'; publishableKey: string; clientSecret: string; failure?: string }
  /** The setup takes no card any more (canceled): the customer starts again. */
  | { state: 'closed'; failure: string };

/** Steps 2 and 3: where the replacement stands, the card put on the registration when the setup succeeded. */
export async function cardReplacement(app: DomainContext, who: Subscriber, scheduleId: string, setupId: unknown): Promise<CardReplacement> {
  const found = await replaceable(app, who, scheduleId);
  const state = await readSetup(app, found, setupId);
  if (state.status === 'succeeded') {
    await applyReplacement(app, found, state);
    return { state: 'saved' };
  }
  if (state.status === 'failed' && state.final) return { state: 'closed', failure: state.message };
  if (!state.clientSecret) throw unavailable();
  return {
    state: 'open',
    publishableKey: found.publishableKey,
    clientSecret: state.clientSecret,
    ...(state.status === 'failed' ? { failure: state.message } : {}),
  };
}
