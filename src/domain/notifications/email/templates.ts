import { escape as escapeHtml } from 'html-escaper';
import { cardBrandName } from '../../../schemas/card-rules.ts';
import { formatMoney, parseAmount } from '../../money.ts';

/**
 * The customer e-mails: one plain-text and one HTML body per event, built from the event's data
 * and the merchant (name, optional logo). Every interpolated value is HTML-escaped; the logo is
 * an inline attachment referenced by cid, so no remote image is loaded.
 */
export interface MerchantView {
  name: string;
  logo?: { contentType: string; bytes: Buffer };
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  attachments: Array<{ filename: string; content: Buffer; contentType: string; cid: string }>;
}

export const LOGO_CID = 'merchant-logo@paylink';

type Data = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : undefined);

/** "₱250.00" from the event's decimal string, or the raw text if it cannot be parsed. */
export function displayAmount(amount: unknown, currency: unknown): string | undefined {
  const a = str(amount);
  const c = str(currency);
  if (!a) return undefined;
  if (!c) return a;
  try {
    return formatMoney(parseAmount(a, c, { allowZero: true }).minor, c);
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

interface Variant {
  subject: (amount: string, merchant: string) => string;
  heading: (amount: string, merchant: string) => string;
  intro: (data: Data, merchant: string) => string;
}

const variants: Record<string, Variant> = {
  'payment.succeeded': {
    subject: (a, m) => `Payment received: ${a} — ${m}`,
    heading: (a) => `You paid ${a}`,
    intro: (_d, m) => `Thank you. ${m} has received your payment.`,
  },
  'schedule.charge_succeeded': {
    subject: (a, m) => `Payment received: ${a} — ${m}`,
    heading: (a) => `Scheduled payment of ${a}`,
    intro: (_d, m) => `Your scheduled payment to ${m} went through.`,
  },
  'payment.failed': {
    subject: (a, m) => `Payment not completed: ${a} — ${m}`,
    heading: (a) => `Your payment of ${a} did not go through`,
    intro: (d) => `Nothing was charged. ${str(d.failure_message) ?? 'The card was declined.'}`,
  },
  'schedule.charge_failed': {
    subject: (a, m) => `Scheduled payment failed: ${a} — ${m}`,
    heading: (a) => `Your scheduled payment of ${a} did not go through`,
    intro: (d, m) => `Nothing was charged. ${str(d.failure_message) ?? 'The card was declined.'} ${m} may try again or contact you.`,
  },
  'refund.succeeded': {
    subject: (a, m) => `Refund of ${a} — ${m}`,
    heading: (a) => `${a} is on its way back to you`,
    intro: (_d, m) => `${m} has refunded your payment. Depending on your bank it can take a few days to show on your statement.`,
  },
  'refund.failed': {
    subject: (a, m) => `Refund of ${a} could not be completed — ${m}`,
    heading: (a) => `Your refund of ${a} could not be completed`,
    intro: (d, m) => `${str(d.failure_message) ?? 'The refund was declined.'} ${m} has been told and will follow up.`,
  },
  'schedule.suspended': {
    subject: (_a, m) => `Scheduled payments paused — ${m}`,
    heading: () => 'Your scheduled payments are paused',
    intro: (d, m) =>
      `The last scheduled payments to ${m} did not go through, so no more will be attempted. ${str(d.failure_message) ?? ''} Contact ${m} to update your card.`,
  },
  'schedule.cancelled': {
    subject: (_a, m) => `Scheduled payments cancelled — ${m}`,
    heading: () => 'Your scheduled payments are cancelled',
    intro: (_d, m) => `${m} has cancelled your scheduled payments. Nothing more will be charged.`,
  },
};

const generic: Variant = {
  subject: (a, m) => `Update from ${m}${a ? `: ${a}` : ''}`,
  heading: () => 'An update on your payment',
  intro: (_d, m) => `This is a notification from ${m}.`,
};

export function renderEmail(opts: { type: string; data: Data; createdAt: Date; merchant: MerchantView }): RenderedEmail {
  const { data, merchant } = opts;
  const variant = variants[opts.type] ?? generic;
  const refund = opts.type.startsWith('refund.');
  const amount = (refund ? displayAmount(data.refund_amount ?? data.amount, data.currency) : displayAmount(data.amount, data.currency)) ?? '';
  const subject = variant.subject(amount, merchant.name);
  const heading = variant.heading(amount, merchant.name);
  const intro = variant.intro(data, merchant.name).replace(/\s+/g, ' ').trim();
  const rows: Array<[string, string | undefined]> = [
    [refund ? 'Refund amount' : 'Amount', amount || undefined],
    ['Card', maskedCard(data.card)],
    ['Transaction ID', str(data.transaction_id)],
    ['Refund ID', str(data.refund_id)],
    ['Schedule reference', str(data.schedule_reference)],
    ['Your reference', str(data.merchant_reference_id)],
    ['Description', str(data.description)],
    ['Date', `${opts.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`],
  ];
  const shown = rows.filter((r): r is [string, string] => r[1] !== undefined);
  const width = Math.max(...shown.map(([k]) => k.length));
  const text = [
    merchant.name,
    '',
    heading,
    '',
    intro,
    '',
    ...shown.map(([k, v]) => `${`${k}:`.padEnd(width + 2)}${v}`),
    '',
    `Questions? Reply to ${merchant.name} and quote the transaction ID.`,
    '',
  ].join('\n');
  const h = escapeHtml;
  const logo = merchant.logo
    ? `<img src="cid:${LOGO_CID}" alt="${h(merchant.name)}" style="max-height:48px;max-width:200px;display:block;margin:0 0 16px">`
    : `<div style="font-size:18px;font-weight:600;margin:0 0 16px">${h(merchant.name)}</div>`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${h(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2328">
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:24px">
${logo}
<h1 style="font-size:22px;margin:0 0 8px">${h(heading)}</h1>
<p style="margin:0 0 16px;line-height:1.5">${h(intro)}</p>
<table role="presentation" style="border-collapse:collapse;width:100%">
${shown.map(([k, v]) => `<tr><th scope="row" style="text-align:left;font-weight:500;color:#57606a;padding:6px 12px 6px 0;vertical-align:top">${h(k)}</th><td style="padding:6px 0;font-variant-numeric:tabular-nums">${h(v)}</td></tr>`).join('\n')}
</table>
<p style="margin:16px 0 0;color:#57606a;font-size:13px">Questions? Reply to ${h(merchant.name)} and quote the transaction ID.</p>
</div>
</body></html>
`;
  const attachments = merchant.logo
    ? [{ filename: `logo.${extensionFor(merchant.logo.contentType)}`, content: merchant.logo.bytes, contentType: merchant.logo.contentType, cid: LOGO_CID }]
    : [];
  return { subject, text, html, attachments };
}

function extensionFor(contentType: string): string {
  return { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp', 'image/svg+xml': 'svg' }[contentType] ?? 'bin';
}
