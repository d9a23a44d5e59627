import { expiryInFuture, parseExpiry } from '../../schemas/card.ts';
import type { CheckoutSubmission } from '../../schemas/checkout.ts';
import { checkCustomerFields, checkoutCustomerSchema, checkoutSubmissionSchema } from '../../schemas/checkout.ts';
import type { PaymentSale } from '../../schemas/link-sale.ts';
import { emptyMessages, parseWith } from '../../schemas/parse.ts';
import type { PaymentMethod } from '../../schemas/payment-method.ts';
import type { DomainContext } from '../context.ts';
import { invalidFields, type Messages } from '../errors.ts';
import { askedFields } from '../links/form.ts';
import { amountLocale, parseCustomerAmount } from './amount.ts';
import type { ResolvedSession } from './pay.ts';
import { checkSale, codeRefusalError, itemsOf, type SaleChoice, saleFormInput, sellsMore } from './sale.ts';
import { saleMinimum } from './sale-minimum.ts';

/**
 * What a customer submitted on a payment page, checked all at once before a session is created or
 * an attempt counted, for every way to pay (card, local methods, the provider's card form).
 */

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export interface ValidSubmission {
  card: CheckoutSubmission['card'];
  expiry: { month: number; year: number };
  amountMinor: bigint;
  /** The customer's own field values, cleaned, by dotted path. */
  customerValues: Record<string, string>;
  /** What the payment buys (items, tip, code, answers); null: one amount, nothing asked. */
  sale: PaymentSale | null;
  /** The promotion code the attempt redeems. */
  redemption?: SaleChoice['redemption'];
}

/**
 * Everything the customer typed is checked, all at once, before a session is created or an
 * attempt counted: the card, the asked fields, the amount on an open-amount link, the expiry
 * against our clock. Throws ER.02.30 with every message.
 */
export async function validateSubmission(app: DomainContext, target: ResolvedSession, input: unknown, clientIp?: string): Promise<ValidSubmission> {
  const checked = await validateCustomer(app, target, input, true, clientIp);
  return checked as ValidSubmission;
}

/**
 * The same checks; without the card when the card goes from the browser straight to the
 * acquirer (PayMongo, src/domain/checkout/provider-pay.ts): then `card` and `expiry` are absent.
 * The one place every pay path decides the amount: on a page that sells items, takes a tip or a
 * code, or asks questions, the total is the server's (src/domain/checkout/sale.ts), held to the
 * acquirer's smallest payment for `method`.
 */
export async function validateCustomer(
  app: DomainContext,
  target: ResolvedSession,
  input: unknown,
  withCard: boolean,
  clientIp?: string,
  method: PaymentMethod = 'card',
): Promise<Omit<ValidSubmission, 'card' | 'expiry'> & Partial<ValidSubmission>> {
  const sent = isRecord(input) ? input : {};
  // The card islands send the page's sale form as it would post (`sale`: form-encoded text).
  const raw = typeof sent.sale === 'string' ? { ...sent, ...saleFormInput(new URLSearchParams(sent.sale)) } : sent;
  const { link, session } = target;
  const systemValues = session?.systemValues ?? {};
  const currency = session?.currency ?? link.link.currency;
  const parsed = parseWith(withCard ? checkoutSubmissionSchema : checkoutCustomerSchema, input);
  const messages: Messages = parsed.ok ? emptyMessages() : parsed.messages;
  const customer = checkCustomerFields(askedFields(link.link, systemValues), isRecord(raw.fields) ? raw.fields : {});
  for (const [path, list] of Object.entries(customer.messages)) messages[path] ??= list;
  let amountMinor = session ? session.amountMinor : link.link.amountMinor;
  const selling = sellsMore(link.link, session);
  // A page that sells items asks no amount: the items make it.
  if (amountMinor === null && !(selling && itemsOf(link.link, session).length > 0)) {
    const amount = parseCustomerAmount(link.link, typeof raw.amount === 'string' ? raw.amount : undefined, currency, amountLocale(raw.amount_locale));
    if ('message' in amount) messages.amount ??= [amount.message];
    else amountMinor = amount.minor;
  }
  const card = parsed.ok && 'card' in parsed.value ? (parsed.value.card as CheckoutSubmission['card']) : undefined;
  const expiry = card ? parseExpiry(card.expiry) : undefined;
  if (expiry && !expiryInFuture(expiry, app.now())) messages['card.expiry'] = ['This card has expired: check the expiry date'];
  const customerValues = { ...systemValues, ...customer.values };
  let choice: SaleChoice | undefined;
  if (selling) {
    const minimumMinor = saleMinimum(await app.connectors.forIntegrator(link.link.integratorId), currency, method);
    const check = await checkSale(app, {
      link: link.link,
      ...(session ? { session } : {}),
      currency,
      amountMinor,
      raw,
      email: customerValues['customer.contact.email'] ?? null,
      locale: amountLocale(raw.amount_locale),
      ...(clientIp ? { clientIp } : {}),
      ...(minimumMinor !== undefined ? { minimumMinor } : {}),
    });
    for (const [path, list] of Object.entries(check.messages)) messages[path] ??= list;
    const codeOnly = codeRefusalError(check, messages);
    if (codeOnly) throw codeOnly;
    choice = check.choice;
    if (choice) amountMinor = choice.totalMinor;
  }
  if (Object.keys(messages).length > 0 || (withCard && (!card || !expiry)) || amountMinor === null) throw invalidFields(messages);
  return {
    ...(card && expiry ? { card, expiry } : {}),
    amountMinor,
    customerValues,
    sale: choice?.sale ?? null,
    ...(choice?.redemption ? { redemption: choice.redemption } : {}),
  };
}
