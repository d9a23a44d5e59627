import { eq } from 'drizzle-orm';
import type { Connector } from '../../acquirer/connector.ts';
import type { DbOrTx } from '../../db/client.ts';
import { integrators } from '../../db/schema.ts';
import { type PaymentMethod, paymentMethodNames, paymentMethods } from '../../schemas/payment-method.ts';
import type { DomainContext } from '../context.ts';
import { acquirerName } from './acquirer-fit.ts';

/**
 * Which payment methods a link's page offers, and in which order. Three choices meet here:
 * - the link's own list (`links.payment_methods`), in the merchant's order of preference;
 * - when it names none (null), the integrator's defaults (`integrators.default_payment_methods`);
 * - when those are null too, every method the acquirer takes, cards first and then the others in
 *   the order paylink lists them: a link made before payment methods existed opens on the card
 *   form as it always did, and a merchant who wants QR Ph or GCash first says so;
 * and the acquirer's own list bounds them all: a method it does not take (the merchant changed
 * acquirer since the link was saved) is left out, never offered.
 */
export type MethodsAcquirer = Pick<Connector, 'name' | 'capabilities'>;

/** The methods the acquirer takes, in its own declaration order. */
export const acquirerMethods = (acquirer: MethodsAcquirer): PaymentMethod[] => acquirer.capabilities.methods.map((m) => m.method);

/** Every method the acquirer takes when no one chose: paylink's order, which puts cards first. */
function unchosenOrder(acquirer: MethodsAcquirer): PaymentMethod[] {
  const taken = new Set(acquirerMethods(acquirer));
  return paymentMethods.filter((m) => taken.has(m));
}

/**
 * The methods a link's page offers, in the order it shows them; empty only when nothing chosen is
 * taken by the acquirer (the links editor refuses such a link when it is saved).
 */
export function allowedMethods(
  link: { paymentMethods: readonly PaymentMethod[] | null; subscription?: { trial_days?: number | undefined } | null },
  integrator: { defaultPaymentMethods: readonly PaymentMethod[] | null },
  acquirer: MethodsAcquirer,
): PaymentMethod[] {
  const chosen = link.paymentMethods ?? integrator.defaultPaymentMethods;
  const taken = new Set(acquirerMethods(acquirer));
  const methods = chosen === null ? unchosenOrder(acquirer) : [...new Set(chosen)].filter((m) => taken.has(m));
  // A free trial keeps a card for its first charge: a method that pays once (QR Ph, a wallet) would
  // start a trial with nothing to charge at its end (docs/subscriptions.md §2, "Trials").
  return link.subscription?.trial_days !== undefined ? methods.filter((m) => m === 'card') : methods;
}

/** The methods of `chosen` the acquirer does not take, and why, in the merchant's words; undefined when all are taken. */
export function methodsMisfit(acquirer: MethodsAcquirer, chosen: readonly PaymentMethod[]): string | undefined {
  const taken = new Set(acquirerMethods(acquirer));
  const missing = chosen.filter((m) => !taken.has(m));
  if (missing.length === 0) return undefined;
  const names = (list: readonly PaymentMethod[]) => list.map((m) => paymentMethodNames[m]).join(', ');
  const offered = taken.size > 0 ? `; it takes ${names(unchosenOrder(acquirer))}` : '';
  return `${acquirerName(acquirer)} does not take ${names(missing)}${offered}`;
}

export interface MethodChoices {
  /** Every method the acquirer takes, in the order offered when no one chose. */
  offered: PaymentMethod[];
  /** The integrator's default methods as a link naming none offers them. */
  defaults: PaymentMethod[];
  /** The integrator's own default list; null: every method the acquirer takes. */
  ownDefaults: PaymentMethod[] | null;
}

/** The integrator's own default methods (null: every method its acquirer takes). */
export async function defaultMethodsOf(db: DbOrTx, integratorId: string): Promise<PaymentMethod[] | null> {
  const [row] = await db.select({ defaultPaymentMethods: integrators.defaultPaymentMethods }).from(integrators).where(eq(integrators.id, integratorId));
  return row?.defaultPaymentMethods ?? null;
}

/** What an editor of methods shows for an integrator: its acquirer's methods and its defaults. */
export async function methodChoices(ctx: Pick<DomainContext, 'db' | 'connectors'>, integratorId: string): Promise<MethodChoices> {
  const acquirer = await ctx.connectors.forIntegrator(integratorId);
  const ownDefaults = await defaultMethodsOf(ctx.db, integratorId);
  return {
    offered: unchosenOrder(acquirer),
    defaults: allowedMethods({ paymentMethods: null }, { defaultPaymentMethods: ownDefaults }, acquirer),
    ownDefaults,
  };
}
