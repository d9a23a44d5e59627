import { randomBytes } from 'node:crypto';
import { DomainError, invalidFields, type Messages } from '../domain/errors.ts';
import type { RefundRequest } from '../domain/refunds/service.ts';
import { parseWith } from '../schemas/parse.ts';
import { refundRequestSchema } from '../schemas/refund.ts';
import { catalogue, type StatusCode } from './catalogue.ts';

/**
 * A console action's refusal as the person sees it: the catalogue's code and description (the
 * API's words for the same refusal) and the messages of each field. Other errors go on.
 */
export interface ConsoleRefusal {
  code: StatusCode;
  description: string;
  messages: Messages;
  status: number;
}

export function consoleRefusal(error: unknown): ConsoleRefusal {
  if (!(error instanceof DomainError)) throw error;
  const messages: Messages = typeof error.messages === 'string' || !error.messages ? { '(request)': [error.messages ?? error.message] } : error.messages;
  return { code: error.code, description: catalogue[error.code].description, messages, status: error.httpStatus ?? catalogue[error.code].http };
}

/** A detail page's lookup: another integrator's or a missing object is "not found" (undefined), other refusals go on. */
export async function foundOrUndefined<T>(lookup: () => Promise<T>): Promise<T | undefined> {
  try {
    return await lookup();
  } catch (error) {
    if (consoleRefusal(error).status === 404) return undefined;
    throw error;
  }
}

/**
 * Words for the API's field names a console form can be refused on without an input of that
 * name beside which to show it (a hidden input, a query parameter, a link in a list).
 */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  transaction_id: 'The payment',
  nonce: 'The form’s one-time code',
  event: 'The callback event',
  status: 'Status',
  action: 'The kind of activity',
  user: 'The person',
  before: 'The “Older” position',
  after: 'The “Newer” position',
  cursor: 'The page position',
  overlap: 'The overlap',
  default_callback_url: 'Your default callback URL',
  callback_url: 'The callback URL',
};

const WORD_CASE: Readonly<Record<string, string>> = { url: 'URL', id: 'ID', api: 'API', jwt: 'JWT', csv: 'CSV', qr: 'QR', totp: 'two-step' };

/** A field's name in words: its label on the form, a known name, or the name spelt out (`success_url` → "Success URL"). */
export function fieldInWords(key: string, labels: Readonly<Record<string, string>> = {}): string {
  const known = labels[key] ?? FIELD_WORDS[key];
  if (known) return known;
  const words = key
    .split(/[_.\s]+/)
    .filter(Boolean)
    .map((w) => WORD_CASE[w.toLowerCase()] ?? w.toLowerCase());
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The messages not shown beside a field of the form, as sentences that name the field in words
 * ("The payment must be …", never the API's `transaction_id`); `labels` gives the form's own.
 */
export const generalMessages = (messages: Messages, fields: readonly string[] = [], labels: Readonly<Record<string, string>> = {}) =>
  Object.entries(messages)
    .filter(([key]) => !fields.includes(key))
    .flatMap(([key, list]) =>
      list.map((m) => {
        if (key.startsWith('(')) return m;
        const name = fieldInWords(key, labels);
        // A message that is a sentence of its own keeps its start; a predicate ("must be …") follows the name.
        return /^[A-Z]/.test(m) ? `${name}: ${m}` : `${name} ${m}`;
      }),
    );

/**
 * A one-time value a form carries so that sending it twice (a double click, the browser
 * resubmitting after Back or Reload) is one action: it becomes the action's idempotency key.
 */
const newFormNonce = () => randomBytes(18).toString('base64url');
const isFormNonce = (value: string) => /^[A-Za-z0-9_-]{24}$/.test(value);

/** The idempotency key of a console refund: its form's nonce, apart from the API's keys. */
const consoleRefundKey = (nonce: string) => `console-refund:${nonce}`;

/**
 * The console's refund form as sent: an amount, or (`kind` full) the whole remaining amount; a
 * reason, notify, its nonce. The amount never starts filled in: a refund of everything is a choice.
 */
export interface RefundForm {
  kind: 'full' | 'partial';
  amount: string;
  reason: string;
  notify: boolean;
  nonce: string;
}

export const emptyRefundForm = (): RefundForm => ({ kind: 'partial', amount: '', reason: '', notify: true, nonce: newFormNonce() });

export const readRefundForm = (field: (name: string) => string): RefundForm => ({
  // The whole-amount choice is a checkbox: absent (unticked) is an amount of one's own.
  kind: field('kind') === 'full' ? 'full' : 'partial',
  amount: field('amount'),
  reason: field('reason'),
  notify: field('notify') === 'yes',
  nonce: field('nonce'),
});

/**
 * The refund the form asks for, checked by the API's own schema (POST /refund), so the console
 * refuses what the API refuses with the same words; every mistake at once (422 ER.02.30).
 */
export function refundRequestOf(form: RefundForm, transactionId: string): RefundRequest {
  const body = parseWith(refundRequestSchema, {
    transaction_id: transactionId,
    notify_user: form.notify,
    reason: form.reason,
    ...(form.kind === 'partial' ? { amount: form.amount } : {}),
  });
  const messages: Messages = body.ok ? {} : body.messages;
  if (form.kind === 'partial' && form.amount.trim() === '') messages.amount = ['is required: enter how much to refund, or choose the whole remaining amount'];
  if (form.kind === 'full' && form.amount.trim() !== '')
    messages.amount = ['must be empty when you choose the whole remaining amount: clear it, or untick that choice to refund this amount'];
  if (!isFormNonce(form.nonce)) messages.nonce = ['is missing: reload the page and fill in the form again'];
  if (!body.ok || Object.keys(messages).length > 0) throw invalidFields(messages);
  return {
    transactionId,
    notifyUser: body.value.notify_user,
    reason: body.value.reason,
    amount: body.value.amount,
    idempotencyKey: consoleRefundKey(form.nonce),
  };
}
