import { and, eq, isNull, notLike, sql } from 'drizzle-orm';
import { checkoutSessions, type Link, promotionRedemptions } from '../../db/schema.ts';
import type { MessageKey } from '../../i18n/en.ts';
import { intlLocale, type Locale, t } from '../../i18n/index.ts';
import type { Item, PaymentSale, TipChoice } from '../../schemas/link-sale.ts';
import type { DomainContext } from '../context.ts';
import { DomainError, type Messages } from '../errors.ts';
import { readAnswers } from '../links/answers.ts';
import { type SaleRefusal, saleTotal } from '../links/sale-totals.ts';
import { formatMoney, MoneyError, parseAmount } from '../money.ts';
import { releaseRedemption } from '../promotions/redemptions.ts';
import { CODE_PATTERN, normalizeCode, normalizeEmail, type Promotion, type PromotionRefusal, promotionRefusal } from '../promotions/rules.ts';
import { findPromotion } from '../promotions/service.ts';

/**
 * What a customer chose on a page that sells more than one amount (items and quantities, a tip,
 * a promotion code, the merchant's questions), read from the submission and checked on the server:
 * the total is computed here with saleTotal, never taken from the browser. Every pay path (card,
 * local methods, the provider's card form) and the page's quote read it through `checkSale`.
 *
 * The submission carries, beside the customer's fields:
 *   quantity    { <item id>: "2" }        an item left out takes its default
 *   tip         "none" | "<preset index>" | "custom", with tip_amount "5.00" for "custom"
 *   promo_code  "LAUNCH10"
 *   answers     { <question id>: value }
 */

export interface SaleChoice {
  totalMinor: bigint;
  /** What is stored on the payment; null: the link sells one amount and asks nothing. */
  sale: PaymentSale | null;
  /** The code to redeem with the attempt. */
  redemption?: { promotionId: string; oncePerEmail: boolean; discountMinor: bigint };
}

/**
 * Why a typed code does not apply: the rules' reasons, plus a code that does not exist, a page that
 * takes none, a free payment, a total it brings below the acquirer's smallest payment.
 */
export type CodeRefusal = PromotionRefusal | 'unknown' | 'not_taken' | 'free' | 'below_minimum';

export interface SaleCheck {
  /** By field (`quantity.<id>`, `tip`, `tip_amount`, `promo_code`, `answers.<id>`), in the page's language. */
  messages: Messages;
  choice?: SaleChoice;
  codeRefusal?: CodeRefusal;
  /** The items (or typed amount) come to less than the acquirer's smallest payment, whatever the code. */
  belowMinimum?: true;
}

type SaleLink = Pick<Link, 'id' | 'integratorId' | 'questions' | 'items' | 'tip' | 'promotionCodes'>;

/**
 * The items a session sells: a dynamic session's own (the integrator's; none when it sent an
 * amount, which then stands as the interface's samples expect), else the link's.
 */
export const itemsOf = (link: Pick<Link, 'items'>, session?: { kind: string; items: readonly Item[] | null }): readonly Item[] =>
  session?.kind === 'dynamic' ? (session.items ?? []) : link.items;

/** Whether a page asks more than one amount and the customer's fields. */
export const sellsMore = (link: SaleLink, session?: { kind: string; items: readonly Item[] | null }) =>
  itemsOf(link, session).length > 0 || link.questions.length > 0 || link.tip !== null || link.promotionCodes;

/**
 * The sale's fields as a form posts them (`quantity[<item>]`, `answers[<question>]`, `tip`,
 * `tip_amount`, `promo_code`), in the shape above; other names are left out.
 */
export function saleFormInput(form: URLSearchParams): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const quantity: Record<string, string> = {};
  const answers: Record<string, string> = {};
  for (const [name, value] of form) {
    const nested = /^(quantity|answers)\[([a-z][a-z0-9_]{0,39})\]$/.exec(name);
    if (nested?.[1] === 'quantity') quantity[nested[2]!] = value;
    // A ticked box posts "true" after its hidden "false": the last value wins.
    else if (nested) answers[nested[2]!] = value;
    else if (['tip', 'tip_amount', 'promo_code'].includes(name)) input[name] = value;
  }
  return { ...input, ...(Object.keys(quantity).length > 0 ? { quantity } : {}), ...(Object.keys(answers).length > 0 ? { answers } : {}) };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const saleRefusalKey = (r: SaleRefusal): { key: MessageKey; params?: Record<string, string> } => {
  switch (r.reason) {
    case 'unknown_item':
      return { key: 'sale.refusal.unknown_item' };
    case 'nothing_chosen':
      return { key: 'sale.refusal.nothing_chosen' };
    case 'no_tip_offered':
    case 'unknown_tip_preset':
    case 'custom_tip_off':
      return { key: 'sale.refusal.tip' };
    case 'tip_above_amount':
      return { key: 'sale.refusal.tip_above' };
    case 'discount_currency':
      return { key: 'sale.code.other_link' };
    case 'zero_total':
      return { key: 'sale.code.free' };
    case 'total_too_large':
      return { key: 'sale.refusal.total' };
    default:
      return { key: 'sale.refusal.quantity' };
  }
};

/** The customer's tip choice as the form sends it. */
function readTip(raw: Record<string, unknown>, currency: string): { choice: TipChoice } | { field: string; key: MessageKey } {
  const tip = raw.tip;
  if (tip === undefined || tip === '' || tip === 'none') return { choice: { kind: 'none' } };
  if (typeof tip === 'string' && /^\d$/.test(tip)) return { choice: { kind: 'preset', index: Number(tip) } };
  if (tip !== 'custom') return { field: 'tip', key: 'sale.refusal.tip' };
  try {
    const { minor } = parseAmount(raw.tip_amount, currency, { allowZero: true });
    return { choice: minor === 0n ? { kind: 'none' } : { kind: 'custom', minor: minor.toString() } };
  } catch (error) {
    if (error instanceof MoneyError) return { field: 'tip_amount', key: 'sale.refusal.tip_amount' };
    throw error;
  }
}

/**
 * Reads and checks the sale of one submission: every wrong field at once, by field, worded in
 * `locale`. `amountMinor` is the one amount of a link without items (fixed or typed); `email` the
 * customer's, for a code used once per customer. Counts a code that does not exist against the
 * client (ER.06.04 once too many were tried).
 */
export async function checkSale(
  app: DomainContext,
  args: {
    link: SaleLink;
    session?: { id?: string; kind: string; items: readonly Item[] | null };
    currency: string;
    amountMinor: bigint | null;
    raw: Record<string, unknown>;
    email?: string | null;
    locale: Locale;
    clientIp?: string;
    /** false: the page's running total, before the customer answered the questions. */
    answersAsked?: boolean;
    /** The smallest total the acquirer takes for the way to pay (saleMinimum); absent: none. */
    minimumMinor?: bigint;
  },
): Promise<SaleCheck> {
  const { link, raw, currency, locale } = args;
  const say = (key: MessageKey, params?: Record<string, string | number>) => [t(locale, key, params)];
  const messages: Messages = {};
  const items = itemsOf(link, args.session);

  const answers = args.answersAsked === false ? readAnswers([], {}) : readAnswers(link.questions, isRecord(raw.answers) ? raw.answers : {});
  if (!answers.ok) {
    for (const r of answers.refusals) {
      // Named by its label: the card form says these in one alert, away from the question.
      const label = link.questions.find((q) => q.id === r.question)?.label;
      const text = t(locale, `sale.answer.${r.reason}`, r.limit === undefined ? undefined : { limit: r.limit });
      messages[`answers.${r.question}`] = [label ? `${label[locale] || label.en}: ${text}` : text];
    }
  }

  const tip = readTip(raw, currency);
  if ('key' in tip) messages[tip.field] = say(tip.key, { currency });

  let promotion: Promotion | undefined;
  let codeRefusal: CodeRefusal | undefined;
  const typed = typeof raw.promo_code === 'string' ? raw.promo_code.trim() : '';
  if (typed !== '') {
    const scope = { clientIp: args.clientIp ?? 'unknown', scope: link.id };
    if (!link.promotionCodes) codeRefusal = 'not_taken';
    else {
      await app.cardVelocity.beforeCodeTry(scope);
      promotion = CODE_PATTERN.test(normalizeCode(typed)) ? await findPromotion(app, link.integratorId, typed) : undefined;
      if (!promotion) {
        await app.cardVelocity.codeMissed(scope);
        codeRefusal = 'unknown';
      } else {
        const email = args.email?.trim() || null;
        const usedByEmail = promotion.oncePerEmail && email ? await heldByEmail(app, promotion.id, email, args.session?.id) : false;
        codeRefusal = promotionRefusal(promotion, { now: app.now(), linkId: link.id, currency, email, usedByEmail }) ?? undefined;
        // The running total comes before the e-mail is typed: the payment checks it.
        if (codeRefusal === 'email_needed' && args.answersAsked === false) codeRefusal = undefined;
      }
    }
    if (codeRefusal) messages.promo_code = say(codeKey(codeRefusal));
  } else if (raw.promo_code !== undefined && typeof raw.promo_code !== 'string') {
    messages.promo_code = say('sale.code.unknown');
  }

  const undiscounted = {
    currency,
    items,
    quantities: isRecord(raw.quantity) ? raw.quantity : {},
    ...(items.length === 0 && args.amountMinor !== null ? { amountMinor: args.amountMinor } : {}),
    ...(link.tip ? { tip: link.tip } : {}),
    ...('choice' in tip ? { tipChoice: tip.choice } : {}),
  };
  const total = saleTotal({ ...undiscounted, ...(promotion && !codeRefusal ? { discount: promotion.discount } : {}) });
  if (!total.ok) {
    for (const r of total.refusals) {
      const item = items.find((i) => `quantity.${i.id}` === r.field);
      const { key } = saleRefusalKey(r);
      if (r.field === 'promo_code') codeRefusal = r.reason === 'zero_total' ? 'free' : 'other_currency';
      const text = t(locale, key, item ? { min: item.quantity.min, max: item.quantity.max } : undefined);
      messages[r.field] ??= [item ? `${item.name[locale] || item.name.en}: ${text}` : text];
    }
  }
  let belowMinimum: true | undefined;
  const minimum = args.minimumMinor;
  if (total.ok && minimum !== undefined && total.total.totalMinor < minimum) {
    const params = { minimum: formatMoney(minimum, currency, intlLocale(locale)) };
    // The code is to blame when the order without it reaches the minimum (its tip counted again).
    const without = total.total.discountMinor > 0n ? saleTotal(undiscounted) : undefined;
    if (without?.ok && without.total.totalMinor >= minimum) {
      codeRefusal = 'below_minimum';
      messages.promo_code = say('sale.code.below_minimum', params);
    } else {
      belowMinimum = true;
      messages[items.length > 0 ? 'total' : 'amount'] ??= say('sale.refusal.below_minimum', params);
    }
  }
  if (Object.keys(messages).length > 0 || !total.ok || !answers.ok)
    return { messages, ...(codeRefusal ? { codeRefusal } : {}), ...(belowMinimum ? { belowMinimum } : {}) };

  const { lines, subtotalMinor, discountMinor, tipMinor, totalMinor } = total.total;
  if (!sellsMore(link, args.session)) return { messages, choice: { totalMinor, sale: null } };
  const applied = promotion && discountMinor > 0n ? promotion : undefined;
  const sale: PaymentSale = {
    lines: lines.map((l) => ({
      id: l.id,
      name: l.name,
      unit_amount_minor: l.unitMinor.toString(),
      quantity: l.quantity,
      amount_minor: l.amountMinor.toString(),
    })),
    subtotal_minor: subtotalMinor.toString(),
    discount: applied ? { code: applied.code, promotion_id: applied.id, amount_minor: discountMinor.toString() } : null,
    tip_minor: tipMinor.toString(),
    answers: answers.answers,
  };
  return {
    messages,
    choice: {
      totalMinor,
      sale,
      ...(applied ? { redemption: { promotionId: applied.id, oncePerEmail: applied.oncePerEmail, discountMinor } } : {}),
    },
  };
}

const codeKey = (refusal: CodeRefusal): MessageKey => (refusal === 'other_currency' ? 'sale.code.other_link' : `sale.code.${refusal}`);

/**
 * Whether this e-mail holds a redemption of the code now (advice: the redemption's unique index
 * decides). One held by an attempt of this same session does not count: coming back to it is not a second use.
 */
async function heldByEmail(app: DomainContext, promotionId: string, email: string, sessionId?: string): Promise<boolean> {
  const [held] = await app.db
    .select({ id: promotionRedemptions.id })
    .from(promotionRedemptions)
    .where(
      and(
        eq(promotionRedemptions.promotionId, promotionId),
        eq(promotionRedemptions.email, normalizeEmail(email)),
        isNull(promotionRedemptions.releasedAt),
        sessionId ? notLike(promotionRedemptions.reference, `checkout:${sessionId}:%`) : undefined,
      ),
    );
  return held !== undefined;
}

/**
 * The refusal for a sale whose only wrong field is the code: the promotion's own status code
 * (used up ER.06.01, used by this customer ER.06.02, below the acquirer's smallest payment
 * ER.06.08, any other reason ER.06.03), so a client can tell a code problem from a form problem;
 * or whose only fault is a total below that minimum (ER.06.09). Undefined when other fields are wrong too.
 */
export function codeRefusalError(check: SaleCheck, messages: Messages): DomainError | undefined {
  const fields = Object.keys(messages);
  if (check.belowMinimum && fields.length === 1 && (fields[0] === 'total' || fields[0] === 'amount')) {
    return new DomainError('ER.06.09', 'The total is below the smallest payment', { messages, httpStatus: 422, say: 'refusal.below_minimum' });
  }
  if (!check.codeRefusal || fields.some((field) => field !== 'promo_code')) return undefined;
  const only = { promo_code: messages.promo_code ?? [] };
  if (check.codeRefusal === 'below_minimum')
    return new DomainError('ER.06.08', 'The promotion code brings the total below the smallest payment', {
      messages: only,
      httpStatus: 422,
      say: 'refusal.code_below_minimum',
    });
  if (check.codeRefusal === 'used_up') return new DomainError('ER.06.01', 'This promotion code is used up', { messages: only, httpStatus: 409 });
  if (check.codeRefusal === 'already_used')
    return new DomainError('ER.06.02', 'This promotion code was already used with this e-mail address', { messages: only });
  return new DomainError('ER.06.03', 'The promotion code does not apply', { messages: only, httpStatus: 422 });
}

/** How long after its session expired an unpaid attempt's code is taken as abandoned (an answer lost at the acquirer has come by then). */
export const ABANDONED_AFTER_MS = 24 * 3600_000;

/**
 * Codes held by attempts of sessions that expired unpaid and whose attempt no provider is still
 * settling (the reconciler ends those): given back. An attempt whose answer was lost stays
 * resumable until its session expires, so its code is kept until then. Returns how many were released.
 */
export async function releaseAbandonedCodes(app: DomainContext, opts: { limit?: number } = {}): Promise<number> {
  const before = new Date(app.now().getTime() - ABANDONED_AFTER_MS);
  const held = await app.db
    .selectDistinct({ reference: promotionRedemptions.reference })
    .from(promotionRedemptions)
    .innerJoin(checkoutSessions, sql`${promotionRedemptions.reference} like 'checkout:' || ${checkoutSessions.id} || ':%'`)
    .where(
      and(
        isNull(promotionRedemptions.releasedAt),
        sql`${checkoutSessions.status} <> 'paid'`,
        sql`${checkoutSessions.expiresAt} < ${before}`,
        sql`(${checkoutSessions.processingAt} is null or ${checkoutSessions.providerPaymentId} is null)`,
      ),
    )
    .limit(opts.limit ?? 50);
  for (const { reference } of held) await app.db.transaction((tx) => releaseRedemption(tx, reference, app.now()));
  return held.length;
}
