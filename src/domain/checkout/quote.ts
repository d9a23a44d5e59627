import { intlLocale, type Locale, t } from '../../i18n/index.ts';
import { paymentMethodSchema } from '../../schemas/payment-method.ts';
import type { DomainContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { isDynamicOnly } from '../links/form.ts';
import { findActiveLink, findLinkById } from '../links/service.ts';
import { formatMoney } from '../money.ts';
import { checkSale } from './sale.ts';
import { saleMinimum } from './sale-minimum.ts';
import { findSessionByToken } from './sessions.ts';

/**
 * The payment page's running total (POST /pay/{slug}/quote, /checkout/{token}/quote): what the
 * customer's quantities, tip and code come to, computed by the same rules as the payment, so the
 * discount is seen before paying. Nothing is stored or redeemed; a code that does not exist
 * counts against the client like on a payment.
 */
/**
 * What the page shows, by the name its elements carry (`data-say`), worded in its language: the
 * summary's lines (`sum.*`; absent ones hidden) and a message under each wrong field.
 */
export interface SaleQuote {
  say: Record<string, string>;
}

const notFound = () => new DomainError('ER.03.20', 'Checkout session not found', { messages: { '(request)': ['This payment page does not exist.'] } });

export async function quoteSale(
  app: DomainContext,
  req: { slug?: string; token?: string; input: Record<string, unknown>; clientIp?: string; locale: Locale },
): Promise<SaleQuote> {
  let found = req.slug !== undefined ? await findActiveLink(app.db, req.slug) : undefined;
  if (found && isDynamicOnly(found.link)) found = undefined;
  const session = req.token !== undefined ? await findSessionByToken(app.db, req.token) : undefined;
  if (session) found = await findLinkById(app.db, session.linkId);
  if (!found) throw notFound();
  const currency = session?.currency ?? found.link.currency;
  const fields = typeof req.input.fields === 'object' && req.input.fields !== null ? (req.input.fields as Record<string, unknown>) : {};
  const email =
    typeof fields['customer.contact.email'] === 'string' ? fields['customer.contact.email'] : (session?.systemValues['customer.contact.email'] ?? null);
  // The way to pay the page shows (a method's form sends `method`; the card's sends none).
  const method = paymentMethodSchema.safeParse(req.input.method);
  const minimumMinor = saleMinimum(await app.connectors.forIntegrator(found.link.integratorId), currency, method.success ? method.data : 'card');
  const ask = (raw: Record<string, unknown>) =>
    checkSale(app, {
      link: found.link,
      ...(session ? { session } : {}),
      currency,
      amountMinor: session ? session.amountMinor : found.link.amountMinor,
      raw,
      email,
      locale: req.locale,
      answersAsked: false,
      ...(req.clientIp ? { clientIp: req.clientIp } : {}),
      ...(minimumMinor !== undefined ? { minimumMinor } : {}),
    });
  let check: Awaited<ReturnType<typeof checkSale>>;
  try {
    check = await ask(req.input);
    // Only the code refused: the lines without it, so the total stays in view under its message.
    if (!check.choice && check.codeRefusal && Object.keys(check.messages).every((field) => field === 'promo_code')) {
      const without = await ask({ ...req.input, promo_code: '' });
      if (without.choice) check = { ...without, messages: check.messages };
    }
  } catch (error) {
    // Too many codes tried: said under the code, like any other word about it.
    if (error instanceof DomainError && error.code === 'ER.06.04') return { say: { promo_code: t(req.locale, 'sale.code.wait') } };
    throw error;
  }
  const money = (minor: bigint | string) => formatMoney(BigInt(minor), currency, intlLocale(req.locale));
  const say: Record<string, string> = {};
  for (const [field, list] of Object.entries(check.messages)) if (list[0]) say[field] = list[0];
  const sale = check.choice?.sale;
  if (!check.choice || !sale) return { say };
  const { discount } = sale;
  say['sum.subtotal'] = money(sale.subtotal_minor);
  if (discount) {
    say['sum.discount_label'] = t(req.locale, 'sale.discount', { code: discount.code });
    say['sum.discount'] = `−${money(discount.amount_minor)}`;
    say['sum.applied'] = t(req.locale, 'sale.code_applied', { code: discount.code, amount: money(discount.amount_minor) });
  }
  if (sale.tip_minor !== '0') {
    say['sum.tip_label'] = t(req.locale, 'sale.tip');
    say['sum.tip'] = money(sale.tip_minor);
  }
  say['sum.total'] = money(check.choice.totalMinor);
  return { say };
}
