import type { OutboxEvent, Payment, Refund, WebhookAttempt } from '../../db/schema.ts';
import { formatMoney } from '../../domain/money.ts';
import type { EventWithAttempts } from '../../domain/notifications/events.ts';
import type { TransactionRecord } from '../../domain/payments/query.ts';
import { refundableMinor } from '../../domain/refunds/rules.ts';
import { cardBrandName } from '../../schemas/card-rules.ts';
import type { Answer, Question } from '../../schemas/link-sale.ts';
import { type PaymentMethod, paymentMethodNames } from '../../schemas/payment-method.ts';
import { customerView } from './customers.ts';
import { refundStateOf, transactionView } from './transactions.ts';

/**
 * The console's words for payments: what a person reads in the list, the CSV and a payment's
 * timeline. Amounts are formatted for their currency (₱1,250.00); times are UTC.
 */
export const consoleTime = (d: Date | null) => (d ? `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC` : '—');

export interface ConsolePaymentRow {
  id: string;
  createdAt: string;
  payer: string;
  email: string | null;
  amount: string;
  status: string;
  /** The state a person cares about: Succeeded, Failed, Partially refunded, Refunded. */
  statusLabel: string;
  link: string | null;
  schedule: string | null;
  /** How the customer paid: "Visa •••• 4242" for a card, the method's name otherwise. */
  method: string;
  paymentMethod: PaymentMethod;
}

/**
 * How a payment was made, as the console words it: a card's brand and last four ("Visa •••• 4242",
 * or "Card" when the acquirer said neither), else the method's name ("GCash", "QR Ph").
 */
export function paymentMethodLabel(p: Pick<Payment, 'paymentMethod' | 'cardBrand' | 'cardLast4'>): string {
  if (p.paymentMethod !== 'card') return paymentMethodNames[p.paymentMethod] ?? p.paymentMethod;
  if (!p.cardBrand && !p.cardLast4) return paymentMethodNames.card;
  return p.cardLast4 ? `${cardBrandName(p.cardBrand)} •••• ${p.cardLast4}` : cardBrandName(p.cardBrand);
}

const refundStateLabel = { not_refunded: '', partially_refunded: 'Partially refunded', refunded: 'Refunded' } as const;

/**
 * The one status a person reads for a payment, on every console screen and in the CSV:
 * Failed, Refunded, Partially refunded or Succeeded.
 */
export const paymentStatusLabel = (p: Pick<Payment, 'status' | 'refundedMinor' | 'amountMinor'>): string =>
  p.status === 'failed' ? 'Failed' : refundStateLabel[refundStateOf(p)] || 'Succeeded';

export function consolePaymentRow(record: TransactionRecord): ConsolePaymentRow {
  const p = record.payment;
  const view = transactionView(record);
  return {
    id: p.id,
    createdAt: consoleTime(p.createdAt),
    payer: view.customer?.name ?? '—',
    email: view.customer?.email ?? null,
    amount: formatMoney(p.amountMinor, p.currency),
    status: p.status,
    statusLabel: paymentStatusLabel(p),
    link: record.linkSlug,
    schedule: record.scheduleReference,
    method: paymentMethodLabel(p),
    paymentMethod: p.paymentMethod,
  };
}

/** One entry of a payment's timeline, in time order. */
/** The events whose e-mail is the payment's receipt (src/domain/notifications/receipt-email.ts). */
const RECEIPT_EVENT_TYPES = ['payment.succeeded', 'schedule.charge_succeeded'];

export interface TimelineEntry {
  at: Date;
  kind: 'payment' | 'refund' | 'callback' | 'email';
  title: string;
  detail: string[];
  /** A callback the person may send again: the event's id. */
  resendEventId?: string;
  /** The receipt e-mail, which the person may send again once it is no longer waiting for the mailer. */
  resendReceipt?: boolean;
  /** The acquirer's code behind a failure, for support (the words are in the title and detail). */
  reference?: string;
}

/** A failure code in plain words when no message came with it: `card_declined` → "Card declined". */
const codeInWords = (code: string) => {
  const words = code.replaceAll('_', ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** What happened to an e-mail, in words: "saved" is a file on the server, never a mail that left. */
const emailStateWords: Record<OutboxEvent['emailState'], string> = {
  none: 'not e-mailed',
  pending: 'waiting',
  sent: 'sent',
  saved: 'not e-mailed: no mail server; saved as a file',
  failed: 'failed',
};

const eventTitle = (type: string) => type.replace('.', ' ').replaceAll('_', ' ');

function refundEntry(r: Refund): TimelineEntry {
  const amount = formatMoney(r.amountMinor, r.currency);
  const why = r.failureMessage ?? (r.failureCode ? codeInWords(r.failureCode) : '');
  const state = r.status === 'succeeded' ? 'succeeded' : r.status === 'failed' ? `failed${why ? `: ${why}` : ''}` : 'pending';
  return {
    at: r.createdAt,
    kind: 'refund',
    title: `${r.type === 'full' ? 'Full' : 'Partial'} refund of ${amount} ${state}`,
    detail: [
      `${r.id} · reason: ${r.reason}`,
      r.notifyUser ? 'The customer is to be e-mailed (the e-mail’s own entry says what happened)' : 'The customer is not e-mailed',
    ],
    ...(r.failureCode ? { reference: r.failureCode } : {}),
  };
}

function attemptLine(a: WebhookAttempt): string {
  const answer = a.statusCode !== null ? `HTTP ${a.statusCode}` : (a.error ?? 'no answer');
  const time = a.latencyMs !== null ? ` in ${a.latencyMs} ms` : '';
  return `Attempt ${a.attempt} at ${consoleTime(a.startedAt)}: ${answer}${time}`;
}

function callbackEntries(event: OutboxEvent, attempts: WebhookAttempt[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  if (event.callbackState === 'no_destination' && attempts.length === 0) {
    entries.push({
      at: event.createdAt,
      kind: 'callback',
      title: `Callback ${eventTitle(event.type)}: no destination`,
      detail: [`${event.id} was sent to no one: no callback URL was named and the account has no default callback URL (Developers)`],
      resendEventId: event.id,
    });
  } else if (event.callbackUrl || attempts.length > 0) {
    const state =
      event.callbackState === 'delivered'
        ? 'delivered'
        : event.callbackState === 'failed'
          ? 'failed'
          : event.callbackState === 'pending'
            ? `waiting (next attempt ${consoleTime(event.callbackNextAt)})`
            : 'not sent';
    entries.push({
      at: event.createdAt,
      kind: 'callback',
      title: `Callback ${eventTitle(event.type)}: ${state}`,
      detail: [`${event.id} to ${event.callbackUrl ?? 'no URL'}`, ...attempts.map(attemptLine)],
      resendEventId: event.id,
    });
  }
  if (event.emailTo) {
    const state = emailStateWords[event.emailState];
    entries.push({
      at: event.emailSentAt ?? event.createdAt,
      kind: 'email',
      title: `E-mail about ${eventTitle(event.type)}: ${state}`,
      detail: [`To ${event.emailTo}`, ...(event.emailLastError ? [`Last error: ${event.emailLastError}`] : [])],
      resendReceipt: RECEIPT_EVENT_TYPES.includes(event.type) && event.emailState !== 'pending',
    });
  }
  return entries;
}

/** The payment, each refund, each callback (with every attempt) and each e-mail, oldest first. */
export function paymentTimeline(record: TransactionRecord, events: EventWithAttempts[]): TimelineEntry[] {
  const p = record.payment;
  const paid: TimelineEntry = {
    at: p.createdAt,
    kind: 'payment',
    title: `${p.status === 'succeeded' ? 'Paid' : 'Payment failed'}: ${formatMoney(p.amountMinor, p.currency)}`,
    detail: [
      p.paymentMethod !== 'card'
        ? `Paid with ${paymentMethodLabel(p)}`
        : p.cardBrand || p.cardLast4
          ? `${cardBrandName(p.cardBrand)} ···· ${p.cardLast4 ?? ''}`.trim()
          : 'No card recorded',
      ...(p.failureCode ? [p.failureMessage ?? codeInWords(p.failureCode)] : []),
    ],
    ...(p.failureCode ? { reference: p.failureCode } : {}),
  };
  const entries = [paid, ...record.refunds.map(refundEntry), ...events.flatMap(({ event, attempts }) => callbackEntries(event, attempts))];
  // Stable: the payment first, then by time; at equal times the order above (refund before its callback).
  return entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.at.getTime() - b.e.at.getTime() || a.i - b.i)
    .map(({ e }) => e);
}

/** What a payment bought, as the console's payment page shows it: English names, formatted amounts, answers under their questions' labels. */
export interface ConsoleSale {
  lines: { name: string; detail: string; amount: string }[];
  subtotal: string;
  discount: { code: string; amount: string } | null;
  tip: string | null;
  /** In the link's question order; a question since removed from the link is named by its id. */
  answers: { id: string; label: string; value: string; removed: boolean }[];
}

/** An answer in words: a dropdown's option label (its value when the option is gone), a ticked box as Yes or No. */
function answerWords(question: Question | undefined, answer: Answer): string {
  if (typeof answer === 'boolean') return answer ? 'Yes' : 'No';
  if (question?.type === 'dropdown') return question.options.find((o) => o.value === answer)?.label.en ?? String(answer);
  return String(answer);
}

/** Answers in the link's question order, then those to questions since removed (by id): the database keeps no order of its own. */
function inQuestionOrder<T>(answers: Record<string, T>, questions: readonly Question[]): Record<string, T> {
  const asked = questions.filter((q) => Object.hasOwn(answers, q.id)).map((q) => q.id);
  const removed = Object.keys(answers)
    .filter((id) => !questions.some((q) => q.id === id))
    .sort();
  return Object.fromEntries([...asked, ...removed].map((id) => [id, answers[id]!]));
}

export function consoleSale(record: Pick<TransactionRecord, 'payment' | 'linkQuestions'>): ConsoleSale | null {
  const { sale, currency } = record.payment;
  if (!sale) return null;
  const money = (minor: string) => formatMoney(BigInt(minor), currency);
  const questions = record.linkQuestions;
  return {
    lines: sale.lines.map((l) => ({ name: l.name.en, detail: `${l.quantity} × ${money(l.unit_amount_minor)}`, amount: money(l.amount_minor) })),
    subtotal: money(sale.subtotal_minor),
    discount: sale.discount ? { code: sale.discount.code, amount: `−${money(sale.discount.amount_minor)}` } : null,
    tip: BigInt(sale.tip_minor) > 0n ? money(sale.tip_minor) : null,
    answers: Object.entries(inQuestionOrder(sale.answers, questions)).map(([id, answer]) => {
      const question = questions.find((q) => q.id === id);
      return { id, label: question?.label.en ?? id, value: answerWords(question, answer), removed: !question };
    }),
  };
}

/** What a new refund may still return, formatted, or null when the payment cannot be refunded. */
export function refundableLabel(record: TransactionRecord): string | null {
  const p = record.payment;
  if (p.status !== 'succeeded') return null;
  const left = refundableMinor(p);
  return left > 0n ? formatMoney(left, p.currency) : null;
}

// CSV (RFC 4180): comma-separated, CRLF line ends, a field quoted when it holds a comma, quote or line break.
const CSV_COLUMNS = [
  'transaction_id',
  'created_at',
  'status',
  'refund_state',
  'amount',
  'currency',
  'refunded_amount',
  'customer_name',
  'customer_email',
  'link',
  'schedule_reference',
  'merchant_reference_id',
  'description',
  'payment_method',
  'card_brand',
  'card_last4',
  'paid_at',
  'failed_at',
  'status_label',
  'customer_mobile',
  'link_title',
  'items',
  'subtotal',
  'discount_code',
  'discount',
  'tip',
  'answers',
] as const;

/**
 * One CSV field. A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return
 * before one) as a formula, so such a value gets a leading apostrophe (OWASP "CSV Injection").
 */
export function csvField(value: string | null): string {
  let v = value ?? '';
  if (/^[=+\-@\t\r]/.test(v)) v = `'${v}`;
  return /[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

export const csvHeader = () => `${CSV_COLUMNS.join(',')}\r\n`;

export function csvRow(record: TransactionRecord): string {
  const v = transactionView(record);
  const customer = customerView(record.payment.customer, record.payment.customerEmail);
  const cells: Record<(typeof CSV_COLUMNS)[number], string | null> = {
    transaction_id: v.transaction_id,
    created_at: v.created_at,
    status: v.status,
    refund_state: v.refund_state,
    amount: v.amount,
    currency: v.currency,
    refunded_amount: v.refunded_amount,
    customer_name: customer?.name ?? null,
    customer_email: customer?.email ?? null,
    link: v.link,
    schedule_reference: v.schedule_reference,
    merchant_reference_id: v.merchant_reference_id,
    description: v.description,
    payment_method: v.payment_method,
    card_brand: v.card?.brand ?? null,
    card_last4: v.card?.last4 ?? null,
    paid_at: v.paid_at,
    failed_at: v.failed_at,
    status_label: paymentStatusLabel(record.payment),
    customer_mobile: customer?.mobile ?? null,
    link_title: record.linkTitle,
    // What was bought, empty for a payment of one amount: the items in words, amounts as the amount column, answers as JSON by question id.
    items: v.sale?.lines.map((l) => `${l.quantity} × ${l.name.en} @ ${l.unit_amount}`).join('; ') ?? null,
    subtotal: v.sale?.subtotal ?? null,
    discount_code: v.sale?.discount?.code ?? null,
    discount: v.sale?.discount?.amount ?? null,
    tip: v.sale?.tip ?? null,
    answers: v.sale && Object.keys(v.sale.answers).length > 0 ? JSON.stringify(inQuestionOrder(v.sale.answers, record.linkQuestions)) : null,
  };
  return `${CSV_COLUMNS.map((c) => csvField(cells[c])).join(',')}\r\n`;
}
