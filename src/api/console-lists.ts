import type { Messages } from '../domain/errors.ts';
import type { Page } from '../domain/pagination.ts';
import type { TransactionFilters } from '../domain/payments/query.ts';
import { type CardRegistrationsQuery, cardRegistrationsQuerySchema } from '../schemas/card-registration.ts';
import type { PageView } from '../schemas/pagination.ts';
import { parseWith } from '../schemas/parse.ts';
import { type SchedulesQuery, schedulesQuerySchema } from '../schemas/schedule.ts';
import { transactionsQuerySchema } from '../schemas/transaction.ts';
import { consoleRefusal } from './console-forms.ts';
import { pageView } from './presenters/pagination.ts';

/**
 * The console's list pages read a plain GET form (what a person types: dates, one search box)
 * and turn it into the query the API's lists take, checked by the API's own schemas, so the
 * console and the API filter alike. Paging: `after` / `before` carry the API's next_cursor and
 * previous_cursor.
 */
export const CONSOLE_PAGE_SIZE = 25;

export interface ConsoleListForm<Q> {
  /** The form's values as given, to show them again. */
  values: Record<string, string>;
  /** The query, or undefined when the form has mistakes (then `messages` says which). */
  query: Q | undefined;
  messages: Messages;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TXN = /^txn_[0-9a-f]{32}$/;

function read(url: URL, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((n) => [n, (url.searchParams.get(n) ?? '').trim().slice(0, 300)]));
}

/** Paging and a date range (whole UTC days, `to` included) as the API's list parameters. */
function pageAndDates(v: Record<string, string>, messages: Messages): Record<string, string | number> {
  const out: Record<string, string | number> = { limit: CONSOLE_PAGE_SIZE };
  if (v.after) out.starting_after = v.after;
  else if (v.before) out.ending_before = v.before;
  const day = (name: 'from' | 'to') => {
    const value = v[name]!;
    if (!value) return undefined;
    const ms = DATE.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
    if (Number.isNaN(ms)) {
      messages[name] = ['must be a date such as 2026-03-31'];
      return undefined;
    }
    return ms;
  };
  const from = day('from');
  const to = day('to');
  if (from !== undefined) out.created_gte = new Date(from).toISOString();
  if (to !== undefined) out.created_lt = new Date(to + 86_400_000).toISOString();
  if (from !== undefined && to !== undefined && to < from) messages.to = ['must not be before From'];
  return out;
}

/** Field names of the API's schemas, as the console's form calls them. */
const renamed: Record<string, string> = { created_gte: 'from', created_lt: 'to', starting_after: 'after', ending_before: 'before', payment_method: 'method' };

function finish<Q>(values: Record<string, string>, messages: Messages, parsed: { ok: true; value: Q } | { ok: false; messages: Messages }): ConsoleListForm<Q> {
  // The console's own words for its fields come first (e.g. To before From, not "created_lt").
  if (!parsed.ok) for (const [key, list] of Object.entries(parsed.messages)) messages[renamed[key] ?? key] ??= list;
  return { values, query: parsed.ok && Object.keys(messages).length === 0 ? parsed.value : undefined, messages };
}

export const PAYMENT_FORM_FIELDS = ['status', 'method', 'link', 'from', 'to', 'q'] as const;

/**
 * The console's Status filter offers every status the list shows (paymentStatusLabel), each as the
 * API's status and refund_state: "Succeeded" is a payment nothing of which was refunded.
 */
export const PAYMENT_STATUS_FILTERS = {
  succeeded: { label: 'Succeeded', query: { status: 'succeeded', refund_state: 'not_refunded' } },
  partially_refunded: { label: 'Partially refunded', query: { status: 'succeeded', refund_state: 'partially_refunded' } },
  refunded: { label: 'Refunded', query: { status: 'succeeded', refund_state: 'refunded' } },
  failed: { label: 'Failed', query: { status: 'failed' } },
} as const satisfies Record<string, { label: string; query: { status: string; refund_state?: string } }>;
export type PaymentStatusFilter = keyof typeof PAYMENT_STATUS_FILTERS;
const isStatusFilter = (value: string): value is PaymentStatusFilter => Object.hasOwn(PAYMENT_STATUS_FILTERS, value);

/**
 * /console/payments and /console/payments.csv: status, payment method, link, date range, and one search box
 * that finds a transaction id (txn_…), a customer e-mail (it has an @) or else a merchant reference.
 */
export function paymentsForm(url: URL): ConsoleListForm<TransactionFilters> {
  const values = read(url, [...PAYMENT_FORM_FIELDS, 'after', 'before']);
  const messages: Messages = {};
  const input: Record<string, string | number> = pageAndDates(values, messages);
  if (values.status && isStatusFilter(values.status)) Object.assign(input, PAYMENT_STATUS_FILTERS[values.status].query);
  else if (values.status)
    messages.status = [
      `must be one of: ${Object.values(PAYMENT_STATUS_FILTERS)
        .map((f) => f.label.toLowerCase())
        .join(', ')}`,
    ];
  if (values.method) input.payment_method = values.method;
  if (values.link) input.link = values.link;
  let transactionId: string | undefined;
  const q = values.q!;
  if (TXN.test(q)) transactionId = q;
  else if (q.startsWith('txn_')) messages.q = ['is not a transaction id: it is txn_ and 32 characters 0-9, a-f'];
  else if (q.includes('@')) input.customer_email = q;
  else if (q) input.merchant_reference_id = q;
  const parsed = parseWith(transactionsQuerySchema, input);
  if (!parsed.ok && parsed.messages.customer_email) parsed.messages.q = parsed.messages.customer_email;
  if (!parsed.ok) delete parsed.messages.customer_email;
  const form = finish(values, messages, parsed);
  return form.query ? { ...form, query: { ...form.query, transaction_id: transactionId } } : form;
}

/** /console/schedules: the API's filters (state, merchant reference, customer e-mail). */
export function schedulesForm(url: URL): ConsoleListForm<SchedulesQuery> {
  const values = read(url, ['status', 'q', 'after', 'before']);
  const messages: Messages = {};
  const input: Record<string, string | number> = pageAndDates({ ...values, from: '', to: '' }, messages);
  if (values.status) input.status = values.status;
  if (values.q?.includes('@')) input.customer_email = values.q;
  else if (values.q) input.merchant_reference_id = values.q;
  const parsed = parseWith(schedulesQuerySchema, input);
  if (!parsed.ok && parsed.messages.customer_email) parsed.messages.q = parsed.messages.customer_email;
  if (!parsed.ok) delete parsed.messages.customer_email;
  return finish(values, messages, parsed);
}

/** /console/card-registrations: state and customer e-mail. */
export function cardRegistrationsForm(url: URL): ConsoleListForm<CardRegistrationsQuery> {
  const values = read(url, ['status', 'email', 'after', 'before']);
  const messages: Messages = {};
  const input: Record<string, string | number> = pageAndDates({ ...values, from: '', to: '' }, messages);
  if (values.status) input.status = values.status;
  if (values.email) input.customer_email = values.email;
  const parsed = parseWith(cardRegistrationsQuerySchema, input);
  if (!parsed.ok && parsed.messages.customer_email) parsed.messages.email = parsed.messages.customer_email;
  if (!parsed.ok) delete parsed.messages.customer_email;
  return finish(values, messages, parsed);
}

/** The page's own address with the form's values and one cursor: the Next / Previous links. */
export function pageLink(path: string, values: Record<string, string>, cursor: { after?: string; before?: string }): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v && k !== 'after' && k !== 'before') params.set(k, v);
  if (cursor.after) params.set('after', cursor.after);
  if (cursor.before) params.set('before', cursor.before);
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** What a list page shows: its page of rows, or the form's mistakes with the HTTP status to answer. */
export interface ConsoleListResult<View> {
  list: PageView<View> | undefined;
  messages: Messages;
  /** 422 for a form with mistakes, the catalogue's status for a refused query, undefined when listed. */
  status: number | undefined;
}

/**
 * Runs a list page's query (the API's list service) when its form is right, and words the page:
 * rows through the presenter, or the mistakes beside the form's fields.
 */
export async function loadConsoleList<Q, Row, View>(
  form: ConsoleListForm<Q>,
  list: (query: Q) => Promise<Page<Row>>,
  view: (row: Row) => View,
  idOf: (row: Row) => string,
): Promise<ConsoleListResult<View>> {
  if (!form.query) return { list: undefined, messages: form.messages, status: 422 };
  try {
    return { list: pageView(await list(form.query), view, idOf), messages: form.messages, status: undefined };
  } catch (error) {
    const refused = consoleRefusal(error);
    return { list: undefined, messages: refused.messages, status: refused.status };
  }
}
