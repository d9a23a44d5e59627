import { eq } from 'drizzle-orm';
import type { Connector } from '../../acquirer/connector.ts';
import type { CardRegistration } from '../../db/schema.ts';
import { cardRegistrations } from '../../db/schema.ts';
import type { Locale } from '../../i18n/index.ts';
import type { CardRegistrationCreate } from '../../schemas/card-registration.ts';
import type { DomainContext } from '../context.ts';
import { invalidFields } from '../errors.ts';
import { activateRegistration } from './activation.ts';
import { registrationForPage } from './service.ts';

/**
 * Registrations paid by a link each cycle (docs/acquirers.md, "Schedules"). When the integrator's
 * acquirer cannot charge a saved card off-session (PayMongo: only through its own subscriptions),
 * a registration keeps no card: the customer confirms on the hosted page that they will pay each
 * occurrence through a payment link e-mailed to them, and the scheduler sends one per occurrence
 * (src/domain/schedules/pay-links.ts). So the customer's e-mail is required.
 */
export type RegistrationCollection = CardRegistration['collection'];

export const PAY_LINK_EMAIL_REQUIRED =
  'is required for pay-by-link registrations: this acquirer cannot charge a saved card later, so each payment is a link e-mailed to the customer';

/** How the new registration's schedules will collect: `pay_link` when the acquirer has no off-session charges of its own. */
export function registrationCollection(connector: Pick<Connector, 'capabilities'>, input: CardRegistrationCreate): RegistrationCollection {
  if (connector.capabilities.offSession === 'native') return 'saved_card';
  if (!input.customer?.email) throw invalidFields({ 'customer.email': [PAY_LINK_EMAIL_REQUIRED] });
  return 'pay_link';
}

/**
 * The hosted page's Confirm (a plain form POST): the pending pay-by-link registration becomes
 * active, with no card, and `card_registration.completed` is written. Confirming again changes
 * nothing. Anything else (unknown, expired, a card registration) is answered by the page itself.
 */
export async function confirmPayLinkRegistration(app: DomainContext, token: string, locale?: Locale): Promise<CardRegistration | undefined> {
  const page = await registrationForPage(app, token);
  if (page.state === 'completed') return page.row;
  if (page.state !== 'open' || page.row.collection !== 'pay_link') return undefined;
  const now = app.now();
  return activateRegistration(app, eq(cardRegistrations.reference, page.row.reference), { status: 'active', activatedAt: now, locale: locale ?? null }, now);
}
