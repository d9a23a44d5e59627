import { and, eq, isNull } from 'drizzle-orm';
import type { CardSetupState, Connector } from '../../acquirer/connector.ts';
import { type CardRegistration, cardRegistrations } from '../../db/schema.ts';
import type { Locale } from '../../i18n/index.ts';
import type { DomainContext } from '../context.ts';
import { activateRegistration, activeCardColumns } from './activation.ts';

/**
 * Card registration where the card goes into the acquirer's own fields (Stripe's Payment Element
 * in setup mode; docs/stripe.md), never to paylink:
 *   1. the hosted page, opened the first time, keeps its language on the registration (for the
 *      e-mails of its schedules), has the connector create a customer and a setup for off-session
 *      use under the registration's key, and keeps both ids on the registration;
 *      the page mounts the Element with the setup's client secret (read again on every view);
 *   2. the browser confirms the setup (3-D Secure in Stripe's frame or by redirect) and comes
 *      back to /register/{token}/return;
 *   3. the registration becomes active with the saved card (its handle, customer, brand, last 4,
 *      expiry) by whichever comes first: that return's sync, the page's own sync, or the verified
 *      `setup_intent.succeeded` webhook (read again with syncCardSetup). Only a pending
 *      registration is activated, once; a failure leaves it pending, so the customer may try
 *      another card and a late failure never undoes an active registration.
 */

type SetupConnector = Connector & Required<Pick<Connector, 'createCardSetup' | 'syncCardSetup'>>;

/** The connector takes registrations through its own card setup (Stripe), not a server vault. */
export function setupConnector(connector: Connector): SetupConnector | undefined {
  return connector.capabilities.cardCollection === 'stripe_element' && connector.createCardSetup && connector.syncCardSetup
    ? (connector as SetupConnector)
    : undefined;
}

export const registrationReturnPath = (token: string) => `/register/${encodeURIComponent(token)}/return`;

/** What the hosted page needs to mount the Element, or the registration it found already active. */
export type OpenedSetup =
  | { state: 'active'; row: CardRegistration }
  | { state: 'open'; publishableKey: string; clientSecret: string; returnUrl: string; live: boolean; failure?: string }
  /** The setup can take no card any more (canceled at the provider): the integrator asks for a new registration. */
  | { state: 'closed'; live: boolean; failure: string };

/**
 * Step 1, on the hosted page: the registration's setup, created the first time (customer and
 * setup under the registration's key, so concurrent first views get the same ones) and read
 * again afterwards. A setup that already succeeded activates the registration here.
 */
export async function openCardSetup(app: DomainContext, row: CardRegistration, token: string, locale?: Locale): Promise<OpenedSetup | undefined> {
  const connector = setupConnector(await app.connectors.forIntegrator(row.integratorId));
  if (!connector || !('publicKey' in connector)) return undefined;
  const publishableKey = String((connector as unknown as { publicKey: string }).publicKey);
  const returnUrl = `${app.origin()}${registrationReturnPath(token)}`;
  // The language of the page the customer first saw is kept now, so whichever path activates the
  // registration later (the return, a later view, or the webhook, which has no page) leaves it set.
  if (locale && !row.locale) {
    await app.db
      .update(cardRegistrations)
      .set({ locale })
      .where(and(eq(cardRegistrations.reference, row.reference), isNull(cardRegistrations.locale)));
  }
  let state: CardSetupState;
  if (row.cardSetupId) {
    state = await connector.syncCardSetup(row.cardSetupId);
  } else {
    const started = await connector.createCardSetup(
      {
        reference: row.reference,
        ...(row.customerName ? { customerName: row.customerName } : {}),
        ...(row.customerEmail ? { customerEmail: row.customerEmail } : {}),
        returnUrl,
      },
      { idempotencyKey: `card-setup:${row.reference}` },
    );
    await app.db
      .update(cardRegistrations)
      .set({ cardSetupId: started.setupId, cardCustomer: started.customer })
      .where(and(eq(cardRegistrations.reference, row.reference), isNull(cardRegistrations.cardSetupId)));
    state = { status: 'pending', setupId: started.setupId, clientSecret: started.clientSecret };
  }
  if (state.status === 'succeeded') {
    const activated = await activateCardSetup(app, row.integratorId, state, locale);
    if (activated) return { state: 'active', row: activated };
  }
  if (state.status === 'failed' && state.final) return { state: 'closed', live: /^pk_live_/.test(publishableKey), failure: state.message };
  if (!state.clientSecret) throw new Error(`${connector.name}: the card setup ${state.setupId} has no client secret`);
  return {
    state: 'open',
    publishableKey,
    clientSecret: state.clientSecret,
    returnUrl,
    live: /^pk_live_/.test(publishableKey),
    ...(state.status === 'failed' ? { failure: state.message } : {}),
  };
}

/**
 * Records a succeeded setup on its pending registration, once, with `card_registration.completed`
 * (as the sandbox's path writes it). Returns the registration as it now stands, or undefined when
 * no registration has this setup.
 */
export async function activateCardSetup(
  app: DomainContext,
  integratorId: string,
  state: Extract<CardSetupState, { status: 'succeeded' }>,
  locale?: Locale,
): Promise<CardRegistration | undefined> {
  const now = app.now();
  // Already active (another path recorded it first), deleted, or not ours: it stands as it is.
  return activateRegistration(
    app,
    and(eq(cardRegistrations.integratorId, integratorId), eq(cardRegistrations.cardSetupId, state.setupId)),
    // A page's language (the return, a view) replaces the one kept when it was first opened; the webhook keeps that one.
    { ...activeCardColumns(state, null, now), cardCustomer: state.customer, ...(locale ? { locale } : {}) },
    now,
  );
}

/** Step 3 from the return address: the registration's setup read again; the state says what the page shows. */
export async function syncRegistrationSetup(app: DomainContext, row: CardRegistration, locale?: Locale): Promise<CardSetupState | undefined> {
  if (!row.cardSetupId || row.status !== 'pending') return undefined;
  const connector = setupConnector(await app.connectors.forIntegrator(row.integratorId));
  if (!connector) return undefined;
  const state = await connector.syncCardSetup(row.cardSetupId);
  if (state.status === 'succeeded') await activateCardSetup(app, row.integratorId, state, locale);
  return state;
}

/**
 * Step 3 from a verified webhook about a setup: only a success is acted on, after reading the setup
 * again (an event carries no card details). A failure or a late event changes nothing. The state
 * read is returned: a setup that was no registration's may be a free trial's.
 */
export async function settleCardSetupEvent(
  app: DomainContext,
  integratorId: string,
  connector: Connector,
  setupId: string,
): Promise<CardSetupState | undefined> {
  const setup = setupConnector(connector);
  if (!setup) return undefined;
  const state = await setup.syncCardSetup(setupId);
  if (state.status === 'succeeded') await activateCardSetup(app, integratorId, state);
  return state;
}
