/**
 * The whole journey with the typed client, against a running paylink:
 *
 *   npm start                        # writes data/demo-credentials.json on a fresh data directory
 *   npm run client:example           # or: node clients/typescript/example.ts
 *                                    # (the package: node node_modules/@paylink/client/dist/example.js)
 *
 * It tidies up after itself: the rest of the payment is refunded, the link it made deactivated, the
 * card registration deleted (which cancels the schedule). `--keep` leaves them as they are, to look at
 * in the console.
 *
 * Settings (environment): PAYLINK_URL (default http://127.0.0.1:4321), PAYLINK_CREDENTIALS (default
 * data/demo-credentials.json: `link_key`, `token`, `secret`, `link`), or PAYLINK_TOKEN, PAYLINK_JWT_SECRET,
 * PAYLINK_LINK and optionally PAYLINK_LINK_KEY instead (without a link key, the token is the dynamic
 * link's `key`, as clients written before link keys send it). The customer's two steps (paying the checkout, entering the card on the
 * hosted page) are what those pages' forms send; here the example plays the customer.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createPaylinkClient, type PaylinkClient, statusCodeOf } from './client.ts';

const keep = process.argv.includes('--keep');

const baseUrl = process.env.PAYLINK_URL ?? 'http://127.0.0.1:4321';
const credentials = (() => {
  if (process.env.PAYLINK_TOKEN && process.env.PAYLINK_JWT_SECRET)
    return { token: process.env.PAYLINK_TOKEN, secret: process.env.PAYLINK_JWT_SECRET, link: 'demo', link_key: process.env.PAYLINK_LINK_KEY };
  return JSON.parse(readFileSync(process.env.PAYLINK_CREDENTIALS ?? 'data/demo-credentials.json', 'utf8')) as {
    token: string;
    secret: string;
    link: string;
    link_key?: string;
  };
})();
const slug = process.env.PAYLINK_LINK ?? credentials.link;
const paylink: PaylinkClient = createPaylinkClient({ baseUrl, token: credentials.token });
/** A test card that expires in December four years from now (the sandbox refuses expired cards). */
const card = {
  number: '4242 4242 4242 4242',
  expiry: `12 / ${String((new Date().getUTCFullYear() + 4) % 100).padStart(2, '0')}`,
  cvc: '123',
  name: 'Ana Reyes',
};

/** Stops the journey with the server's own words when a step did not give the expected code. */
function expectCode(step: string, result: { data?: unknown; error?: unknown; response: Response }, ...codes: string[]) {
  const code = statusCodeOf(result);
  if (code === undefined || !codes.includes(code)) {
    throw new Error(`${step}: expected ${codes.join(' or ')}, got HTTP ${result.response.status} ${JSON.stringify(result.data ?? result.error)}`);
  }
  console.log(`${step}: ${code}`);
}
/** A JWT signed with HS256 (what /api/v1/schedule takes), valid for `seconds` from now: node:crypto, no library. */
function signHs256(claims: Record<string, unknown>, secret: string, seconds: number): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const iat = Math.floor(Date.now() / 1000);
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ ...claims, iat, exp: iat + seconds })}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}
const tokenIn = (url: string) => new URL(url).pathname.split('/').filter(Boolean).at(-1)!;

// 1. A dynamic payment link: payment data in, a checkout link out. `key` is the publishable link
// key, which creates checkouts and nothing else (the secret token is kept for the API).
const merchantReference = `INV-${Date.now()}`;
const dynamic = await paylink.POST('/pay/{slug}', {
  params: { path: { slug } },
  body: {
    key: credentials.link_key ?? credentials.token,
    customer: { first_name: 'Ana', last_name: 'Reyes', contact: { email: 'ana@example.com' } },
    payment: { description: 'Order 1001', merchant_reference_id: merchantReference },
    route: { notify_user: 'false' },
  },
});
if (!dynamic.data) throw new Error(`dynamic link: HTTP ${dynamic.response.status} ${JSON.stringify(dynamic.error)}`);
console.log(`dynamic link: ${dynamic.data.link}`);

// 2. The customer pays on that page (what its form sends).
const paid = await paylink.POST('/checkout/{token}/pay', { params: { path: { token: tokenIn(dynamic.data.link) } }, body: { fields: {}, card } });
expectCode('payment', paid, 'OK.03.00');
const transactionId = (paid.data!.data as { transaction_id: string }).transaction_id;

// 3. Refund part of it, then read the transaction.
const refund = await paylink.POST('/api/v1/refund', { body: { transaction_id: transactionId, notify_user: false, reason: 'Damaged box', amount: '10.00' } });
expectCode('partial refund', refund, 'OK.04.00');
const transaction = await paylink.GET('/api/v1/transactions/{transaction_id}', { params: { path: { transaction_id: transactionId } } });
expectCode('transaction', transaction, 'OK.00.00');
const view = transaction.data!.data.transaction;
console.log(`  ${view.transaction_id}: paid ${view.amount} ${view.currency}, refunded ${view.refunded_amount}, refundable ${view.refundable_amount}`);

// 3b. Find it again by your own reference: the transactions list, filtered (newest first).
const found = await paylink.GET('/api/v1/transactions', { params: { query: { merchant_reference_id: merchantReference, limit: 5 } } });
expectCode('transactions by merchant_reference_id', found, 'OK.00.00');
const listed = found.data!.data.items;
if (listed.length !== 1 || listed[0]!.transaction_id !== transactionId)
  throw new Error(`transactions list: expected ${transactionId} alone, got ${JSON.stringify(listed)}`);
console.log(`  ${merchantReference}: ${listed[0]!.transaction_id}, paid by ${listed[0]!.customer?.name ?? 'nobody named'}`);

// 3c. A payment link created by API: a fixed amount, payable at its URL.
const newLink = await paylink.POST('/api/v1/links', {
  body: { slug: `gift-${Date.now()}`, title: 'Gift card', currency: 'PHP', amount: '500.00' },
});
expectCode('link created', newLink, 'OK.00.00');
const createdLink = newLink.data!.data.link;
console.log(`  link ${createdLink.slug} (${createdLink.kind}): ${createdLink.amount} ${createdLink.currency} at ${createdLink.url}`);

// 4. Register a card: the customer enters it on the hosted page (what its form sends).
const registration = await paylink.POST('/api/v1/card-registrations', { body: { customer: { name: 'Ana Reyes', email: 'ana@example.com' } } });
expectCode('card registration', registration, 'OK.11.00');
const { reference, link } = registration.data!.data as { reference: string; link: string };
const entered = await paylink.POST('/register/{token}/card', { params: { path: { token: tokenIn(link) } }, body: { fields: {}, card } });
expectCode('card entered', entered, 'OK.11.00');

// 5. Schedule a monthly charge of that card (09:00 on the 1st, Manila time), signed with the JWT secret.
const data = {
  credit_card: { reference },
  schedule: { second: '0', minute: '0', hour: '9', day_of_month: '1', month: '*', day_of_week: '*' },
  payment: { description: 'Monthly plan', amount: 99.5, currency: 'PHP', merchant_reference_id: 'SUB-1', other_references: [] },
  route: { notify_user: false },
  time_offset: '+08:00',
};
const payload = signHs256({ data }, credentials.secret, 300);
const scheduled = await paylink.POST('/api/v1/schedule', { body: { payload } });
expectCode('schedule', scheduled, 'OK.12.00');
const scheduleRef = (scheduled.data!.data as { reference: string }).reference;
const schedule = await paylink.GET('/api/v1/schedules/{reference}', { params: { path: { reference: scheduleRef } } });
expectCode('schedule read', schedule, 'OK.00.00');
console.log(`  ${scheduleRef}: ${schedule.data!.data.schedule.status}, next run ${schedule.data!.data.schedule.next_run_at}`);

// 6. List events, page by page (newest first; next_cursor is the next, older page).
let startingAfter: string | undefined;
let events = 0;
for (;;) {
  const page = await paylink.GET('/api/v1/events', { params: { query: { limit: 50, ...(startingAfter ? { starting_after: startingAfter } : {}) } } });
  expectCode('events page', page, 'OK.00.00');
  const body = page.data!.data;
  if (!('items' in body)) throw new Error('events page: expected the list page (items), got the legacy feed');
  events += body.items.length;
  for (const event of body.items) console.log(`  ${event.created_at} ${event.type} (callback ${event.callback.state})`);
  if (!body.has_more || !body.next_cursor) break;
  startingAfter = body.next_cursor;
}

// 7. Cancel the schedule.
const cancelled = await paylink.DELETE('/api/v1/schedule', { body: { reference: scheduleRef } });
expectCode('cancel schedule', cancelled, 'OK.12.20');

// 8. Tidy up, unless --keep: refund the rest of the payment, deactivate the link, delete the card.
if (keep) {
  console.log('kept: the payment, the link and the card stay as they are (--keep)');
} else {
  const rest = await paylink.POST('/api/v1/refund', {
    body: { transaction_id: transactionId, notify_user: false, reason: 'Example tidied up', amount: view.refundable_amount },
  });
  expectCode('refund of the rest', rest, 'OK.02.00', 'OK.04.00');
  const deactivated = await paylink.PATCH('/api/v1/links/{slug}', { params: { path: { slug: createdLink.slug } }, body: { active: false } });
  expectCode('link deactivated', deactivated, 'OK.00.00');
  const deleted = await paylink.DELETE('/api/v1/card-registration', { body: { reference } });
  expectCode('card deleted', deleted, 'OK.11.20', 'OK.11.21');
}
console.log(`done: transaction ${transactionId}, card ${reference}, schedule ${scheduleRef}, ${events} events`);
