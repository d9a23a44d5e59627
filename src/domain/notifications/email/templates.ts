import { escape as escapeHtml } from 'html-escaper';
import { DEFAULT_LOCALE, intlLocale, type Locale, type MessageKey, translator } from '../../../i18n/index.ts';
import { cardBrandName } from '../../../schemas/card-rules.ts';
import { paymentMethods } from '../../../schemas/payment-method.ts';
import { formatMoney, parseAmount } from '../../money.ts';
import { saleSummary } from '../../payments/sale-summary.ts';
import type { EmailView } from './view.ts';

/**
 * The customer e-mails: one plain-text and one HTML body per event, built from the event's
 * EmailView (written from the domain fact, ./view.ts) and the merchant (name, optional logo, the link's colour and language). Words come from the
 * src/i18n catalogues (the acquirer's decline reason stays as the acquirer words it). Every
 * interpolated value is HTML-escaped; the logo is an inline attachment referenced by cid, so no
 * remote image is loaded (mail clients block remote images by default, and our origin may not be
 * reachable from the customer's mail client).
 */
export interface MerchantView {
  name: string;
  logo?: { contentType: string; bytes: Buffer };
  /** The link's brand colour (#rrggbb): the e-mail's top band. */
  color?: string | null;
  /** The e-mail's language: the link's setting (English without one). */
  locale?: Locale;
  /** Where the customer's reply goes: the merchant's support address, else its contact address. */
  replyTo?: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  attachments: Array<{ filename: string; content: Buffer; contentType: string; cid: string }>;
}

export const LOGO_CID = 'merchant-logo@paylink';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : undefined);

/** "₱250.00" from the event's decimal string (in `locale`'s format), or the raw text if it cannot be parsed. */
export function displayAmount(amount: unknown, currency: unknown, locale?: string): string | undefined {
  const a = str(amount);
  const c = str(currency);
  if (!a) return undefined;
  if (!c) return a;
  try {
    return formatMoney(parseAmount(a, c, { allowZero: true }).minor, c, locale);
  } catch {
    return `${a} ${c}`;
  }
}

/** "Visa •••• 4242": only the brand and the last four digits ever appear. */
export function maskedCard(card: unknown): string | undefined {
  if (!card || typeof card !== 'object') return undefined;
  const { brand, last4 } = card as { brand?: unknown; last4?: unknown };
  const digits = typeof last4 === 'string' && /^\d{4}$/.test(last4) ? last4 : undefined;
  if (!digits) return undefined;
  const name = cardBrandName(typeof brand === 'string' ? brand : undefined);
  return `${name} •••• ${digits}`;
}

/**
 * How the customer paid, in the e-mail's language: "Visa •••• 4242" for a card, the method's name
 * ("GCash", "QR Ph") otherwise; undefined when the view names no method (an older event).
 */
export function paidWith(view: Pick<EmailView, 'paymentMethod' | 'card'>, tr: (key: MessageKey) => string): string | undefined {
  const method = view.paymentMethod;
  if (!method || !(paymentMethods as readonly string[]).includes(method)) return undefined;
  if (method === 'card') return maskedCard(view.card) ?? tr('email.method.card');
  return tr(`email.method.${method}` as MessageKey);
}

/** The e-mail types with words of their own; any other type gets the generic words. */
const worded = new Set([
  'payment.succeeded',
  'schedule.charge_succeeded',
  'payment.failed',
  'schedule.charge_failed',
  'refund.succeeded',
  'refund.failed',
  'schedule.suspended',
  'schedule.cancelled',
  'schedule.payment_link_sent',
  'subscription.page_link',
]);

/** An occurrence's payment link (schedule.payment_link_sent): only our own checkout address is ever made a button. */
const payUrl = (view: EmailView): string | undefined => {
  const url = str(view.payLink?.url);
  return url && /^https?:\/\/[^\s"'<>]+\/checkout\/[A-Za-z0-9_-]{43}$/.test(url) ? url : undefined;
};

/** The events whose e-mail is the payment's receipt: they list what was bought. */
const RECEIPTS = new Set(['payment.succeeded', 'schedule.charge_succeeded']);

/** A receipt's lines ("2 × ₱150.00", then discount, tip and total) as label and amount pairs; none when the payment bought one amount. */
function saleRows(type: string, view: EmailView, locale: Locale, total: string): Array<{ label: string; detail?: string; amount: string; total?: boolean }> {
  const currency = str(view.currency);
  if (!RECEIPTS.has(type) || !view.sale || !currency) return [];
  const tr = translator(locale);
  const sale = saleSummary(view.sale, currency, locale);
  if (sale.lines.length === 0 && !sale.discount && !sale.tip) return [];
  return [
    ...sale.lines.map((l) => ({ label: l.name, detail: tr('receipt.line', { quantity: l.quantity, unit: l.unit }), amount: l.amount })),
    ...(sale.subtotal ? [{ label: tr('receipt.subtotal'), amount: sale.subtotal }] : []),
    ...(sale.discount ? [{ label: tr('receipt.discount', { code: sale.discount.code }), amount: sale.discount.amount }] : []),
    ...(sale.tip ? [{ label: tr('receipt.tip'), amount: sale.tip }] : []),
    { label: tr('receipt.total'), amount: total, total: true },
  ];
}

/** A brand colour safe to put in a style attribute (#rrggbb), else paylink's blue. */
const accent = (color: string | null | undefined) => (color && /^#[0-9a-fA-F]{6}$/.test(color) ? color : '#1d4ed8');

/** `item`: what was bought, the title of the link the payment came from; `manageUrl`: the customer's subscriptions page. */
export function renderEmail(opts: {
  type: string;
  view: EmailView;
  createdAt: Date;
  merchant: MerchantView;
  item?: string;
  manageUrl?: string;
}): RenderedEmail {
  const { view, merchant } = opts;
  const locale = merchant.locale ?? DEFAULT_LOCALE;
  const tr = translator(locale);
  const tag = intlLocale(locale);
  const refund = opts.type.startsWith('refund.');
  const amount = displayAmount(view.amount, view.currency, tag) ?? '';
  const link = opts.type === 'schedule.payment_link_sent' ? payUrl(view) : undefined;
  const reason = link
    ? tr(view.payLink?.reason === 'authentication_required' ? 'email.reason.authenticate' : 'email.reason.pay_by_link')
    : (str(view.failureMessage) ??
      (refund ? tr('email.reason.refund_declined') : opts.type.endsWith('_failed') || opts.type.endsWith('.failed') ? tr('email.reason.card_declined') : ''));
  const words = { amount, merchant: merchant.name, reason };
  // A subscription's free trial: its schedule.created is the customer's only word that it started.
  const trialEnds = opts.type === 'schedule.created' && str(view.trialEndsAt) ? new Date(str(view.trialEndsAt)!) : undefined;
  const key = trialEnds ? 'trial_started' : worded.has(opts.type) ? opts.type : 'generic';
  const say = (part: 'subject' | 'heading' | 'intro') => tr(`email.${key}.${part}` as MessageKey, words);
  const subject = key === 'generic' ? tr(amount ? 'email.generic.subject_amount' : 'email.generic.subject', words) : say('subject');
  const heading = say('heading');
  const intro = say('intro').replace(/\s+/g, ' ').trim();
  const formatDate = new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  const date = formatDate.format(opts.createdAt);
  const expires = link && str(view.payLink?.expiresAt) ? new Date(str(view.payLink?.expiresAt)!) : undefined;
  const rows: Array<[string, string | undefined]> = [
    [refund ? tr('email.row.refund_amount') : tr('email.row.amount'), amount || undefined],
    [tr('email.row.first_payment'), trialEnds && !Number.isNaN(trialEnds.getTime()) ? `${formatDate.format(trialEnds)} UTC` : undefined],
    [tr('email.row.pay_by'), expires && !Number.isNaN(expires.getTime()) ? `${formatDate.format(expires)} UTC` : undefined],
    // A payment or refund says how the customer paid; a card registration names its card.
    view.paymentMethod ? [tr('email.row.paid_with'), paidWith(view, tr)] : [tr('email.row.card'), maskedCard(view.card)],
    [tr('email.row.transaction_id'), str(view.transactionId)],
    [tr('email.row.refund_id'), str(view.refundId)],
    [tr('email.row.schedule_reference'), str(view.scheduleReference)],
    [tr('email.row.your_reference'), str(view.merchantReferenceId)],
    [tr('email.row.item'), str(opts.item)],
    // A link without a description of its own describes the payment by its title: said once.
    [tr('email.row.description'), str(view.description) === str(opts.item) ? undefined : str(view.description)],
    [tr('email.row.date'), `${date} UTC`],
  ];
  const shown = rows.filter((r): r is [string, string] => r[1] !== undefined);
  const width = Math.max(...shown.map(([k]) => k.length));
  const lines = saleRows(opts.type, view, locale, amount);
  const linesText = lines.length
    ? [tr('receipt.items'), ...lines.map((l) => (l.detail ? `${l.label}: ${l.detail} = ${l.amount}` : `${l.label}: ${l.amount}`)), '']
    : [];
  // An e-mail with no transaction yet (a payment link) names what to quote instead.
  const questions = tr(!str(view.transactionId) && str(view.scheduleReference) ? 'email.questions_schedule' : 'email.questions', { merchant: merchant.name });
  const payText = link ? ['', tr('email.pay_link_text', { url: link }), ''] : [''];
  const manage = opts.manageUrl ? tr('email.manage_text', { url: opts.manageUrl }) : undefined;
  const manageText = manage ? [manage, ''] : [];
  const text = [
    merchant.name,
    '',
    heading,
    '',
    intro,
    ...payText,
    ...linesText,
    ...shown.map(([k, v]) => `${`${k}:`.padEnd(width + 2)}${v}`),
    '',
    ...manageText,
    questions,
    '',
  ].join('\n');
  const h = escapeHtml;
  const color = accent(merchant.color);
  const logo = merchant.logo
    ? `<img src="cid:${LOGO_CID}" alt="${h(merchant.name)}" style="max-height:48px;max-width:200px;display:block;margin:0 0 16px">`
    : `<div style="font-size:18px;font-weight:600;margin:0 0 16px">${h(merchant.name)}</div>`;
  const html = `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${h(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2328">
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;border-top:6px solid ${color};padding:24px">
${logo}
<h1 style="font-size:22px;margin:0 0 8px">${h(heading)}</h1>
<p style="margin:0 0 16px;line-height:1.5">${h(intro)}</p>
${lines.length ? `${linesHtml(tr('receipt.items'), lines)}\n` : ''}${link ? `<p style="margin:0 0 20px"><a href="${h(link)}" style="display:inline-block;background:${color};color:#fff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:6px">${h(tr('email.pay_button', { amount }))}</a></p>\n<p style="margin:0 0 16px;color:#57606a;font-size:13px;word-break:break-all">${h(tr('email.pay_link_text', { url: link }))}</p>\n` : ''}<table role="presentation" style="border-collapse:collapse;width:100%">
${shown.map(([k, v]) => `<tr><th scope="row" style="text-align:left;font-weight:500;color:#57606a;padding:6px 12px 6px 0;vertical-align:top">${h(k)}</th><td style="padding:6px 0;font-variant-numeric:tabular-nums;overflow-wrap:anywhere">${h(v)}</td></tr>`).join('\n')}
</table>
${opts.manageUrl ? `<p style="margin:16px 0 0;line-height:1.5"><a href="${h(opts.manageUrl)}" style="color:${color};font-weight:600">${h(tr('email.subscription.page_link.heading'))}</a></p>\n` : ''}<p style="margin:16px 0 0;color:#57606a;font-size:13px">${h(questions)}</p>
</div>
</body></html>
`;
  const attachments = merchant.logo
    ? [{ filename: `logo.${extensionFor(merchant.logo.contentType)}`, content: merchant.logo.bytes, contentType: merchant.logo.contentType, cid: LOGO_CID }]
    : [];
  return { subject, text, html, attachments };
}

/** The receipt's lines as an HTML table: names left, amounts right; the total in bold. */
function linesHtml(heading: string, lines: ReturnType<typeof saleRows>): string {
  const h = escapeHtml;
  const cell = 'padding:6px 0;border-bottom:1px solid #e5e7eb;vertical-align:top';
  const rows = lines.map((l) => {
    const weight = l.total ? 'font-weight:700;border-bottom:0' : '';
    const detail = l.detail ? `<br><span style="color:#57606a;font-size:13px">${h(l.detail)}</span>` : '';
    return `<tr><th scope="row" style="text-align:left;font-weight:400;${cell};overflow-wrap:anywhere;${weight}">${h(l.label)}${detail}</th><td style="text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums;${cell};padding-left:12px;${weight}">${h(l.amount)}</td></tr>`;
  });
  return `<h2 style="font-size:16px;margin:0 0 4px">${h(heading)}</h2>\n<table role="presentation" style="border-collapse:collapse;width:100%;margin:0 0 20px">\n${rows.join('\n')}\n</table>`;
}

function extensionFor(contentType: string): string {
  return { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp', 'image/svg+xml': 'svg' }[contentType] ?? 'bin';
}
