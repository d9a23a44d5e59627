import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import {
  cardRegistrationCompletedSchema,
  cardRegistrationCreatedSchema,
  cardRegistrationCreateSchema,
  cardRegistrationDeletedSchema,
  cardRegistrationPageSchema,
  cardRegistrationReplySchema,
  cardRegistrationsQuerySchema,
} from '../../schemas/card-registration.ts';
import { checkoutSubmissionSchema, saleQuoteBodySchema } from '../../schemas/checkout.ts';
import { paymentDeclinedSchema, paymentSucceededSchema, trialDeclinedSchema, trialStartedSchema } from '../../schemas/checkout-reply.ts';
import { dynamicLinkBodySchema } from '../../schemas/dynamic-link.ts';
import { dynamicLinkReplySchema } from '../../schemas/envelope.ts';
import { eventPageSchema, eventsQuerySchema, legacyEventPageSchema, testEventViewSchema, webhookSecretRotatedSchema } from '../../schemas/events.ts';
import { eventResendViewSchema, integratorReplySchema, integratorUpdateSchema } from '../../schemas/integrator.ts';
import { linkCreateSchema, linkPageSchema, linkReplySchema, linksQuerySchema, linkUpdateSchema } from '../../schemas/link.ts';
import {
  promotionCreateBodySchema,
  promotionPageSchema,
  promotionReplySchema,
  promotionsQuerySchema,
  promotionUpdateBodySchema,
} from '../../schemas/promotion.ts';
import { providerStartBodySchema, providerStartSchemas, providerWebhookReplySchema } from '../../schemas/provider.ts';
import { refundDeclinedSchema, refundReplySchema, refundRequestSchema } from '../../schemas/refund.ts';
import {
  referenceBodySchema,
  scheduleCancelledSchema,
  scheduleCreatedSchema,
  schedulePageSchema,
  scheduleReplySchema,
  scheduleRequestSchema,
  scheduleResumedViewSchema,
  scheduleRunNowViewSchema,
  schedulesQuerySchema,
} from '../../schemas/schedule.ts';
import { refundPageSchema, refundsQuerySchema, transactionPageSchema, transactionReplySchema, transactionsQuerySchema } from '../../schemas/transaction.ts';
import type { StatusCode } from '../../status-codes.ts';

/**
 * Every operation paylink serves, one entry each: the OpenAPI document (document.ts), the
 * reference page (/docs/api) and the typed client (clients/typescript) are generated from this
 * list and the zod schemas it names. A contract test fails when a route under src/pages/api/v1
 * has no entry here, and checks real responses against what an entry says.
 *
 * `codes` lists the status codes the operation itself answers with and the `data` each carries;
 * the codes every operation of its kind can return (authentication, body parsing, idempotency,
 * rate limits, 500) are added by document.ts from `auth`, `body` and the method.
 */
export type Auth =
  /** `Authorization: <token>` (or `Bearer <token>`). */
  | 'token'
  /** The integrator's link key (or, for older clients, its API token) in the body field `key` (the dynamic payment link). */
  | 'link-key'
  /** Paylink's own payment pages (same-origin JSON, no credential; the page's token is the capability). */
  | 'browser'
  | 'none';

export interface CodeEntry {
  /** Fields of `data` beside status_code and status_description; a list when the code carries one of several shapes. */
  data?: z.ZodObject | readonly z.ZodObject[];
  /** When the code is answered with another HTTP status than the catalogue's default (ER.02.30 → 404). */
  http?: number;
  /** Further HTTP statuses the same code is answered with (ER.02.30 as 404 for an unknown id and 422 for a field). */
  alsoHttp?: readonly number[];
}

export interface Operation {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** OpenAPI path: `/api/v1/transactions/{transaction_id}`. */
  path: string;
  operationId: string;
  tag:
    | 'Payment links'
    | 'Promotion codes'
    | 'Refunds'
    | 'Transactions'
    | 'Card registrations'
    | 'Schedules'
    | 'Events and callbacks'
    | 'Account'
    | 'Payment pages'
    | 'Meta';
  summary: string;
  description: string;
  auth: Auth;
  pathParams?: z.ZodObject;
  query?: z.ZodObject;
  /** The JSON body's schema (zod classic or zod/mini). */
  body?: $ZodType;
  codes: Partial<Record<StatusCode, CodeEntry>>;
  /** A success that is not the envelope (the dynamic link's `{link}`, the document itself). */
  plainSuccess?: { schema: z.ZodType; description: string; cache?: boolean };
  /** Named request bodies, first one shown first; lenient variants the interface allows are examples too. */
  requestExamples?: Record<string, { summary: string; value: unknown }>;
  /** The `data` of a typical success (status_code and status_description are added). */
  successExample?: { code: StatusCode; data?: Record<string, unknown> };
}

const notFound: CodeEntry = { http: 404 };
const txnId = 'txn_5f0c7d0e3b1a4c2e9d8f7a6b5c4d3e2f';
const cardRef = '6f1c1b0e-8a53-4d0e-9d0e-2f5b2a1c9e11';
const scheduleRef = 'sch_0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f';

export const operations: Operation[] = [
  {
    method: 'post',
    path: '/pay/{slug}',
    operationId: 'createDynamicLink',
    tag: 'Payment links',
    summary: 'Create a checkout from a dynamic payment link',
    description:
      'POST payment data to the link\'s own address with your publishable link key (`pk_link_…`, Console → Developers, or `link_key` in GET /api/v1/integrator) in `key` (no Authorization header). The link key creates checkouts and nothing else, so it may ship in a web page or an app; the secret API token is still accepted as `key` for clients written before link keys. The answer is `{ "link" }`, the checkout page to send the customer to, not the envelope. Fields the link marks as system-filled are shown read-only. Which fields are required depends on the link (docs/payment-links.md).',
    auth: 'link-key',
    pathParams: z.object({ slug: z.string().meta({ description: 'The payment link’s address, e.g. acme-books.' }) }),
    body: dynamicLinkBodySchema,
    codes: { 'ER.02.30': {}, 'ER.03.10': {}, 'ER.03.11': {}, 'ER.03.12': {} },
    plainSuccess: { schema: dynamicLinkReplySchema, description: 'The checkout page to send the customer to.' },
    requestExamples: {
      full: {
        summary: 'Customer and payment data, notify_user as a boolean',
        value: {
          key: 'pk_link_acme_change_me_0123456789abcdefghijklmnop',
          customer: {
            first_name: 'Ana',
            last_name: 'Reyes',
            billing_address: { line1: '12 Mabini St', city_municipality: 'Makati', zip: '1200', state_province_region: 'Metro Manila', country_code: 'PH' },
            contact: { email: 'ana@example.com', mobile: '+639171234567' },
          },
          payment: { description: 'Order 1001', amount: 250, currency: 'PHP', merchant_reference_id: 'INV-1001' },
          route: { callback_url: 'https://shop.example/paylink', notify_user: true },
        },
      },
      lenient: {
        summary: 'The API token as `key` (older clients), the amount as a string, notify_user as "true" (all accepted)',
        value: {
          key: 'acme_live_token_change_me_0123456789abcdef',
          payment: { description: 'Order 1002', amount: '250.00', currency: 'PHP' },
          route: { notify_user: 'true' },
        },
      },
    },
  },
  {
    method: 'post',
    path: '/checkout/{token}/pay',
    operationId: 'payCheckout',
    tag: 'Payment pages',
    summary: 'Pay a checkout with a card (the checkout page’s form)',
    description:
      'What the checkout page sends when the customer pays: the card and the customer fields the page asks for. Same-origin JSON only: a request from another site’s page is refused (ER.02.44). A decline is HTTP 200 with ER.03.30. On a subscription link with a free trial nothing is charged: OK.07.04 when the card is verified and the trial started, ER.07.03 when it is declined.',
    auth: 'browser',
    pathParams: z.object({ token: z.string().meta({ description: 'The checkout token from the dynamic link’s `link`.' }) }),
    body: checkoutSubmissionSchema,
    codes: {
      'OK.03.00': { data: paymentSucceededSchema },
      'ER.03.30': { data: paymentDeclinedSchema },
      'OK.07.04': { data: trialStartedSchema },
      'ER.07.03': { data: trialDeclinedSchema },
      'ER.02.30': {},
      'ER.03.11': {},
      'ER.03.12': {},
      'ER.03.20': {},
      'ER.03.21': {},
      'ER.03.22': {},
      'ER.03.23': {},
      'ER.03.24': {},
      'ER.03.25': {},
      'ER.03.26': {},
      'ER.06.01': {},
      'ER.06.02': {},
      'ER.06.03': {},
      'ER.06.04': {},
    },
    requestExamples: {
      card: {
        summary: 'A sandbox card that succeeds',
        value: { fields: {}, card: { number: '4242 4242 4242 4242', expiry: '12 / 30', cvc: '123', name: 'Ana Reyes' } },
      },
    },
    successExample: { code: 'OK.03.00', data: { transaction_id: txnId, redirect_url: '/checkout/Jx7Kq2mX9pL4wQ' } },
  },
  {
    method: 'post',
    path: '/pay/{slug}/pay',
    operationId: 'payStaticLink',
    tag: 'Payment pages',
    summary: 'Pay a static payment link with a card (the link page’s form)',
    description:
      'What the static link page sends when the customer pays: `session` (the page’s ticket), the amount on an open-amount link, the customer fields and the card. Same-origin JSON only.',
    auth: 'browser',
    pathParams: z.object({ slug: z.string() }),
    body: checkoutSubmissionSchema,
    codes: {
      'OK.03.00': { data: paymentSucceededSchema },
      'ER.03.30': { data: paymentDeclinedSchema },
      'OK.07.04': { data: trialStartedSchema },
      'ER.07.03': { data: trialDeclinedSchema },
      'ER.02.30': {},
      'ER.03.10': {},
      'ER.03.11': {},
      'ER.03.12': {},
      'ER.03.22': {},
      'ER.03.23': {},
      'ER.03.24': {},
      'ER.03.25': {},
      'ER.03.26': {},
      'ER.06.01': {},
      'ER.06.02': {},
      'ER.06.03': {},
      'ER.06.04': {},
    },
  },
  ...(['/checkout/{token}/quote', '/pay/{slug}/quote'] as const).map(
    (path): Operation => ({
      method: 'post',
      path,
      operationId: path.startsWith('/pay') ? 'quoteStaticLink' : 'quoteCheckout',
      tag: 'Payment pages',
      summary: 'The running total of what the customer chose (the page’s summary)',
      description:
        'For a link that sells items, takes a tip or a promotion code: what the quantities, tip and code come to, worded in the page’s language (`amount_locale`): `say` holds the summary’s lines (`sum.subtotal`, `sum.discount_label`, `sum.discount`, `sum.applied`, `sum.tip_label`, `sum.tip`, `sum.total`; absent ones not shown) and a message per wrong field (`quantity.<id>`, `tip`, `tip_amount`, `promo_code`). Nothing is stored or redeemed; a code that does not exist counts against the client like on a payment. Same-origin JSON, or the page’s form fields.',
      auth: 'browser',
      pathParams: path.startsWith('/pay') ? z.object({ slug: z.string() }) : z.object({ token: z.string() }),
      body: saleQuoteBodySchema,
      codes: {
        'OK.00.00': { data: z.object({ say: z.record(z.string(), z.string()) }) },
        'ER.02.30': {},
        'ER.03.20': {},
      },
    }),
  ),
  {
    method: 'post',
    path: '/checkout/{token}/provider',
    operationId: 'startProviderCheckout',
    tag: 'Payment pages',
    summary: 'Start a payment whose card goes to the acquirer (the PayMongo card form)',
    description:
      'For a merchant on PayMongo: the customer fields (no card). paylink claims the attempt and creates the PaymentIntent; the answer has what the browser needs to give the card to PayMongo (docs/acquirers.md). Same-origin JSON only. A sandbox merchant’s checkout is ER.03.26.',
    auth: 'browser',
    pathParams: z.object({ token: z.string() }),
    body: providerStartBodySchema,
    codes: {
      'OK.00.00': { data: providerStartSchemas },
      'ER.02.30': {},
      'ER.03.20': {},
      'ER.03.21': {},
      'ER.03.22': {},
      'ER.03.23': {},
      'ER.03.24': {},
      'ER.03.25': {},
      'ER.03.26': {},
      'ER.03.31': {},
      'ER.06.01': {},
      'ER.06.02': {},
      'ER.06.03': {},
      'ER.06.04': {},
    },
  },
  {
    method: 'post',
    path: '/pay/{slug}/provider',
    operationId: 'startProviderStaticLink',
    tag: 'Payment pages',
    summary: 'Start a static link payment whose card goes to the acquirer (the PayMongo card form)',
    description: 'As POST /checkout/{token}/provider, for a static link: `session` is the page’s ticket.',
    auth: 'browser',
    pathParams: z.object({ slug: z.string() }),
    body: providerStartBodySchema,
    codes: {
      'OK.00.00': { data: providerStartSchemas },
      'ER.02.30': {},
      'ER.03.10': {},
      'ER.03.11': {},
      'ER.03.12': {},
      'ER.03.22': {},
      'ER.03.23': {},
      'ER.03.24': {},
      'ER.03.25': {},
      'ER.03.26': {},
      'ER.03.31': {},
      'ER.06.01': {},
      'ER.06.02': {},
      'ER.06.03': {},
      'ER.06.04': {},
    },
  },
  {
    method: 'post',
    path: '/webhooks/{provider}/{id}',
    operationId: 'receiveProviderWebhook',
    tag: 'Payment pages',
    summary: 'An acquirer’s webhook for one integrator (PayMongo)',
    description:
      'Register this address at the acquirer (the console’s Developers page shows it). Verified with the integrator’s webhook secret for that acquirer (ER.01.20 otherwise, under the provider’s signature header), and its signature time within PAYLINK_PROVIDER_WEBHOOK_TOLERANCE_SECONDS of the server’s clock either way (ER.01.21 otherwise); a duplicate event id at the same integrator changes nothing; a late event never moves a payment or refund backwards.',
    auth: 'none',
    pathParams: z.object({ provider: z.string(), id: z.string().meta({ description: 'The integrator’s webhook id (wh_…).' }) }),
    codes: { 'OK.00.00': { data: providerWebhookReplySchema }, 'ER.01.20': {}, 'ER.01.21': {}, 'ER.02.33': {}, 'ER.02.34': {} },
  },
  {
    method: 'post',
    path: '/register/{token}/card',
    operationId: 'submitRegistrationCard',
    tag: 'Payment pages',
    summary: 'Register a card (the hosted card registration page’s form)',
    description:
      'What the hosted card page sends: the card. The sandbox verifies it; the registration becomes active (OK.11.00) or stays pending (ER.11.30). A registration of a merchant on Stripe takes the card in Stripe’s Payment Element instead: a card sent here is ER.03.26 and goes nowhere.',
    auth: 'browser',
    pathParams: z.object({ token: z.string().meta({ description: 'The token in the card registration’s `link`.' }) }),
    body: z.object({ fields: z.record(z.string(), z.string()).optional(), card: checkoutSubmissionSchema.shape.card }),
    codes: { 'OK.11.00': { data: cardRegistrationCompletedSchema }, 'ER.11.30': {}, 'ER.02.30': { http: 404 }, 'ER.03.21': {}, 'ER.03.23': {}, 'ER.03.26': {} },
    requestExamples: {
      card: { summary: 'A sandbox card', value: { fields: {}, card: { number: '4242424242424242', expiry: '12/30', cvc: '123', name: 'Ana Reyes' } } },
    },
  },
  {
    method: 'post',
    path: '/api/v1/refund',
    operationId: 'refundPayment',
    tag: 'Refunds',
    summary: 'Refund a payment, in full or in part',
    description:
      'Without `amount`: a FULL refund of everything still refundable (OK.02.00). With `amount`: a PARTIAL refund (OK.04.00). With an acquirer that settles refunds later (PayMongo, Stripe), OK.02.01 / OK.04.01 with `refund_status: pending`: the amount stays reserved until the refund.succeeded or refund.failed event; ER.20.27 when that acquirer cannot make this refund for the payment’s method (its refund window for the method has passed, or it refunds the method only in whole payments); ER.20.28 when it cannot refund the payment’s method at all (PayMongo: QR Ph) or its bank (UnionBank online banking, with `data.bank`). Both are refused before anything is reserved, with `data.payment_method`, `data.refusal_reason` (`method`, `partial` or `window`) and a message naming both. Business refusals arrive with HTTP 200 and an ER.20.xx code: decide from `data.status_code` as well as the HTTP status.',
    auth: 'token',
    body: refundRequestSchema,
    codes: {
      'OK.02.00': { data: refundReplySchema },
      'OK.04.00': { data: refundReplySchema },
      'OK.02.01': { data: refundReplySchema },
      'OK.04.01': { data: refundReplySchema },
      'ER.20.20': {},
      'ER.20.21': {},
      'ER.20.22': {},
      'ER.20.23': {},
      'ER.20.24': {},
      'ER.20.25': {},
      'ER.20.26': { data: refundDeclinedSchema },
      'ER.20.27': {},
      'ER.20.28': {},
      'ER.02.30': notFound,
    },
    requestExamples: {
      partial: {
        summary: 'PARTIAL: amount as a string, notify_user as a boolean',
        value: { transaction_id: txnId, notify_user: true, reason: 'Damaged box', amount: '12.50' },
      },
      partialNumber: {
        summary: 'PARTIAL: amount as a number, notify_user as text (both accepted)',
        value: { transaction_id: txnId, notify_user: 'false', reason: 'Damaged box', amount: 12.5 },
      },
      full: { summary: 'FULL: no amount', value: { transaction_id: txnId, notify_user: 'true', reason: 'Order cancelled' } },
    },
    successExample: {
      code: 'OK.04.00',
      data: {
        transaction_id: txnId,
        refund_id: 'rfd_1a2b3c4d5e6f',
        refund_type: 'PARTIAL',
        refund_status: 'succeeded',
        amount: '12.50',
        refunded_amount: '12.50',
        refundable_amount: '237.50',
        currency: 'PHP',
        payment_method: 'card',
      },
    },
  },
  {
    method: 'get',
    path: '/api/v1/transactions/{transaction_id}',
    operationId: 'getTransaction',
    tag: 'Transactions',
    summary: 'A payment with its refunds, amounts and states',
    description: 'For reconciliation: what was paid, refunded, is pending and may still be refunded, with every refund.',
    auth: 'token',
    pathParams: z.object({ transaction_id: z.string().meta({ description: 'txn_…' }) }),
    codes: { 'OK.00.00': { data: transactionReplySchema }, 'ER.02.30': notFound },
  },
  {
    method: 'post',
    path: '/api/v1/card-registrations',
    operationId: 'createCardRegistration',
    tag: 'Card registrations',
    summary: 'Start a card registration',
    description:
      'Returns the registration `reference` (a UUID, what a schedule names) and `link`, the hosted page where the customer enters the card (for a merchant on Stripe, in Stripe’s Payment Element: Stripe keeps the card). ER.11.31 when the merchant’s acquirer keeps no cards for later charges (PayMongo).',
    auth: 'token',
    body: cardRegistrationCreateSchema,
    codes: { 'OK.11.00': { data: cardRegistrationCreatedSchema }, 'ER.02.30': {}, 'ER.11.31': {} },
    requestExamples: {
      customer: {
        summary: 'Whose card it is, and where to send them afterwards',
        value: { customer: { name: 'Ana Reyes', email: 'ana@example.com' }, return_url: 'https://shop.example/done' },
      },
    },
    successExample: {
      code: 'OK.11.00',
      data: { reference: cardRef, link: 'http://127.0.0.1:4321/register/Jx7Kq2mX9pL4wQ', expires_at: '2026-11-22T09:15:02.123Z' },
    },
  },
  {
    method: 'get',
    path: '/api/v1/card-registrations/{reference}',
    operationId: 'getCardRegistration',
    tag: 'Card registrations',
    summary: 'A card registration: state, brand, last 4 and expiry',
    description: 'Never the card number. `pending` until the customer completes the hosted page, then `active`; `deleted` after DELETE.',
    auth: 'token',
    pathParams: z.object({ reference: z.string().meta({ description: 'The registration’s UUID.' }) }),
    codes: { 'OK.00.00': { data: cardRegistrationReplySchema }, 'ER.02.30': notFound },
  },
  {
    method: 'delete',
    path: '/api/v1/card-registration',
    operationId: 'deleteCardRegistration',
    tag: 'Card registrations',
    summary: 'Delete a card registration and cancel its schedules',
    description: 'OK.11.20 when deleted now (with the schedules it cancelled), OK.11.21 when it was deleted before.',
    auth: 'token',
    body: referenceBodySchema,
    codes: { 'OK.11.20': { data: cardRegistrationDeletedSchema }, 'OK.11.21': { data: cardRegistrationDeletedSchema }, 'ER.02.30': notFound },
    requestExamples: { reference: { summary: 'A card registration reference', value: { reference: cardRef } } },
  },
  {
    method: 'post',
    path: '/api/v1/schedule',
    operationId: 'createSchedule',
    tag: 'Schedules',
    summary: 'Schedule recurring charges of a registered card',
    description:
      'The body carries `payload`, a JWT (HS256, signed with your JWT secret) whose `data` claim holds the card reference, the six recurrence fields, the payment, the route and the UTC offset (docs/schedules.md). The same payload again answers with the first reference.',
    auth: 'token',
    body: scheduleRequestSchema,
    codes: { 'OK.12.00': { data: scheduleCreatedSchema }, 'ER.01.10': {}, 'ER.02.30': notFound, 'ER.12.30': {}, 'ER.12.31': {}, 'ER.12.35': {} },
    requestExamples: { payload: { summary: 'A signed payload', value: { payload: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJkYXRhIjp7fX0.c2lnbmF0dXJl' } } },
    successExample: { code: 'OK.12.00', data: { reference: scheduleRef } },
  },
  {
    method: 'delete',
    path: '/api/v1/schedule',
    operationId: 'cancelSchedule',
    tag: 'Schedules',
    summary: 'Cancel a schedule, or delete a card registration',
    description:
      'A schedule reference (sch_…) cancels that schedule (OK.12.20, or OK.12.21 when cancelled before); a card registration reference deletes the registration and cancels its schedules (OK.11.20 / OK.11.21).',
    auth: 'token',
    body: referenceBodySchema,
    codes: {
      'OK.12.20': { data: scheduleCancelledSchema },
      'OK.12.21': { data: scheduleCancelledSchema },
      'OK.11.20': { data: cardRegistrationDeletedSchema },
      'OK.11.21': { data: cardRegistrationDeletedSchema },
      'ER.02.30': notFound,
    },
    requestExamples: { schedule: { summary: 'A schedule reference', value: { reference: scheduleRef } } },
    successExample: { code: 'OK.12.20', data: { reference: scheduleRef, timestamp: '2026-11-21T09:15:02.123Z' } },
  },
  {
    method: 'get',
    path: '/api/v1/schedules/{reference}',
    operationId: 'getSchedule',
    tag: 'Schedules',
    summary: 'A schedule: state, recurrence, next run and its runs',
    description: 'Times are in the schedule’s own UTC offset; each run names the transaction it charged.',
    auth: 'token',
    pathParams: z.object({ reference: z.string().meta({ description: 'sch_…' }) }),
    codes: { 'OK.00.00': { data: scheduleReplySchema }, 'ER.02.30': notFound },
  },
  {
    method: 'get',
    path: '/api/v1/events',
    operationId: 'listEvents',
    tag: 'Events and callbacks',
    summary: 'Your events and their callback and e-mail delivery state',
    description:
      'Newest first, like every list: pass `next_cursor` as `starting_after` for the next (older) page, `previous_cursor` as `ending_before` for the previous one. With `after` (an event id or an ISO 8601 timestamp) it is the legacy feed instead: oldest first, `data.events`, and the page’s `next_after` as `after` for the next page while `has_more` is true (50 a page by default); `after` cannot be combined with the cursors or `created_*`. A cursor that is not one of your events is 404.',
    auth: 'token',
    query: eventsQuerySchema,
    codes: { 'OK.00.00': { data: [eventPageSchema, legacyEventPageSchema] }, 'ER.02.30': notFound },
  },
  {
    method: 'post',
    path: '/api/v1/webhook-secret/rotate',
    operationId: 'rotateWebhookSecret',
    tag: 'Events and callbacks',
    summary: 'A new webhook secret',
    description: 'Returned once. The previous secret keeps signing callbacks for 24 hours beside the new one. Not replayed by Idempotency-Key.',
    auth: 'token',
    codes: { 'OK.00.00': { data: webhookSecretRotatedSchema } },
  },
  {
    method: 'get',
    path: '/api/v1/integrator',
    operationId: 'getIntegrator',
    tag: 'Account',
    summary: 'Your account',
    description: 'A cheap way to check a token works.',
    auth: 'token',
    codes: { 'OK.00.00': { data: integratorReplySchema } },
  },
  {
    method: 'get',
    path: '/api/v1/transactions',
    operationId: 'listTransactions',
    tag: 'Transactions',
    summary: 'Your transactions, newest first',
    description:
      'Filter by `status`, `payment_method` (card, qrph, gcash, paymaya, grab_pay, shopeepay, dob, brankas, billease), `link` (a slug; one not yours matches nothing), `merchant_reference_id` or `customer_email` (case-insensitive). Each carries who paid (`customer`), how (`payment_method`, and `card` with brand and last four for cards) and the link or schedule it came from. Newest first (`created_at`, then id, descending). Page with `starting_after` = the page’s `next_cursor` (older) or `ending_before` = its `previous_cursor` (newer); `limit` 1–100 (default 20); `created_gte` / `created_lt` bound the creation time. Filters are exact. A cursor that is not one of your objects in this list is 404; an unknown parameter or a bad value is 422 naming it.',
    auth: 'token',
    query: transactionsQuerySchema,
    codes: { 'OK.00.00': { data: transactionPageSchema }, 'ER.02.30': notFound },
    successExample: {
      code: 'OK.00.00',
      data: {
        items: [
          {
            transaction_id: txnId,
            status: 'succeeded',
            refund_state: 'not_refunded',
            amount: '250.00',
            currency: 'PHP',
            refunded_amount: '0.00',
            pending_refund_amount: '0.00',
            refundable_amount: '250.00',
            refund_count: 0,
            description: 'Order 1001',
            merchant_reference_id: 'INV-1001',
            other_references: [],
            link: 'acme-books',
            schedule_reference: null,
            customer: {
              first_name: 'Ana',
              last_name: 'Reyes',
              name: 'Ana Reyes',
              email: 'ana@example.com',
              mobile: null,
              billing_address: null,
            },
            payment_method: 'card',
            card: { brand: 'visa', last4: '4242', exp_month: null, exp_year: null },
            failure_code: null,
            failure_message: null,
            created_at: '2026-11-21T09:15:02.123Z',
            paid_at: '2026-11-21T09:15:02.123Z',
            failed_at: null,
            refunded_at: null,
            refunds: [],
            sale: null,
          },
        ],
        has_more: false,
        next_cursor: txnId,
        previous_cursor: null,
      },
    },
  },
  {
    method: 'get',
    path: '/api/v1/refunds',
    operationId: 'listRefunds',
    tag: 'Refunds',
    summary: 'Your refunds, newest first',
    description:
      'Filter by `status`, `transaction_id` or `payment_method` (how the refunded transaction was paid). Each carries its transaction’s references, link, customer and `payment_method`. Newest first (`created_at`, then id, descending). Page with `starting_after` = the page’s `next_cursor` (older) or `ending_before` = its `previous_cursor` (newer); `limit` 1–100 (default 20); `created_gte` / `created_lt` bound the creation time. Filters are exact. A cursor that is not one of your objects in this list is 404; an unknown parameter or a bad value is 422 naming it.',
    auth: 'token',
    query: refundsQuerySchema,
    codes: { 'OK.00.00': { data: refundPageSchema }, 'ER.02.30': notFound },
  },
  {
    method: 'get',
    path: '/api/v1/card-registrations',
    operationId: 'listCardRegistrations',
    tag: 'Card registrations',
    summary: 'Your card registrations, newest first',
    description:
      'Filter by `status` or `customer_email` (case-insensitive). Newest first (`created_at`, then id, descending). Page with `starting_after` = the page’s `next_cursor` (older) or `ending_before` = its `previous_cursor` (newer); `limit` 1–100 (default 20); `created_gte` / `created_lt` bound the creation time. Filters are exact. A cursor that is not one of your objects in this list is 404; an unknown parameter or a bad value is 422 naming it.',
    auth: 'token',
    query: cardRegistrationsQuerySchema,
    codes: { 'OK.00.00': { data: cardRegistrationPageSchema }, 'ER.02.30': notFound },
  },
  {
    method: 'get',
    path: '/api/v1/schedules',
    operationId: 'listSchedules',
    tag: 'Schedules',
    summary: 'Your schedules, newest first',
    description:
      'Filter by `status`, `merchant_reference_id`, `card_registration_reference` or `customer_email` (the card’s). Runs are not listed: read one schedule for them. Newest first (`created_at`, then id, descending). Page with `starting_after` = the page’s `next_cursor` (older) or `ending_before` = its `previous_cursor` (newer); `limit` 1–100 (default 20); `created_gte` / `created_lt` bound the creation time. Filters are exact. A cursor that is not one of your objects in this list is 404; an unknown parameter or a bad value is 422 naming it.',
    auth: 'token',
    query: schedulesQuerySchema,
    codes: { 'OK.00.00': { data: schedulePageSchema }, 'ER.02.30': notFound },
  },
  {
    method: 'get',
    path: '/api/v1/links',
    operationId: 'listLinks',
    tag: 'Payment links',
    summary: 'Your payment links, newest first',
    description:
      'Filter by `active` (`true` or `false`) or `currency`. Newest first (`created_at`, then id, descending). Page with `starting_after` = the page’s `next_cursor` (older) or `ending_before` = its `previous_cursor` (newer); `limit` 1–100 (default 20); `created_gte` / `created_lt` bound the creation time. Filters are exact. A cursor that is not one of your objects in this list is 404; an unknown parameter or a bad value is 422 naming it.',
    auth: 'token',
    query: linksQuerySchema,
    codes: { 'OK.00.00': { data: linkPageSchema }, 'ER.02.30': notFound },
  },
  {
    method: 'post',
    path: '/api/v1/links',
    operationId: 'createLink',
    tag: 'Payment links',
    summary: 'Create a payment link',
    description:
      'A static link (payable at its `url` as it is) or, when some field is `system`-filled, a dynamic one (paid only through the dynamic POST to /pay/{slug}). Without `slug` one is generated. Give `amount` for a fixed amount or `min_amount`/`max_amount` for one the customer enters. A `logo` is a `data:` URL (PNG, JPEG, WebP or SVG, at most 512 KiB); the body may be up to 1 MiB. Every setting is checked at once: a refusal is 422 naming each field (a slug already taken too) and writes nothing.',
    auth: 'token',
    body: linkCreateSchema,
    codes: { 'OK.00.00': { data: linkReplySchema }, 'ER.02.30': {} },
    requestExamples: {
      fixed: {
        summary: 'A fixed-amount link',
        value: { slug: 'acme-gift-card', title: 'Gift card', currency: 'PHP', amount: '500.00', success_url: 'https://shop.example.com/thanks' },
      },
      range: { summary: 'The customer enters an amount', value: { title: 'Donation', currency: 'PHP', min_amount: '100.00', max_amount: '10000.00' } },
    },
  },
  {
    method: 'get',
    path: '/api/v1/links/{slug}',
    operationId: 'getLink',
    tag: 'Payment links',
    summary: 'One of your payment links',
    description: 'Its settings, `kind` (static or dynamic) and payment page `url`. Another integrator’s link is 404, like one that does not exist.',
    auth: 'token',
    pathParams: z.object({ slug: z.string().meta({ description: 'The link’s slug, e.g. acme-books.' }) }),
    codes: { 'OK.00.00': { data: linkReplySchema }, 'ER.02.30': notFound },
  },
  {
    method: 'patch',
    path: '/api/v1/links/{slug}',
    operationId: 'updateLink',
    tag: 'Payment links',
    summary: 'Change a payment link',
    description:
      'Only the settings given change; `null` clears one. `active: false` deactivates the link (its page answers 404), `true` reactivates it. Giving `amount` clears a range and giving `min_amount`/`max_amount` clears a fixed amount. The slug never changes. A change shows on /pay/{slug} at once.',
    auth: 'token',
    pathParams: z.object({ slug: z.string().meta({ description: 'The link’s slug.' }) }),
    body: linkUpdateSchema,
    codes: { 'OK.00.00': { data: linkReplySchema }, 'ER.02.30': { http: 404, alsoHttp: [422] } },
    requestExamples: { deactivate: { summary: 'Stop taking payments', value: { active: false } } },
  },
  {
    method: 'get',
    path: '/api/v1/promotions',
    operationId: 'listPromotions',
    tag: 'Promotion codes',
    summary: 'Your promotion codes, newest first',
    description:
      'Filter by `active` (`true` or `false`). Paged like every list: `starting_after` / `ending_before` with the page’s cursors, `limit` 1–100 (default 20), `created_gte` / `created_lt`. `redeemed` counts the redemptions held now.',
    auth: 'token',
    query: promotionsQuerySchema,
    codes: { 'OK.00.00': { data: promotionPageSchema }, 'ER.02.30': notFound },
  },
  {
    method: 'post',
    path: '/api/v1/promotions',
    operationId: 'createPromotion',
    tag: 'Promotion codes',
    summary: 'Create a promotion code',
    description:
      'A percentage off (1–100) or a fixed amount off in one currency (a decimal, e.g. "50.00"; it applies only to links in that currency), for every link or the links named in `link_ids`, within `valid_from` (inclusive) and `valid_until` (exclusive), at most `max_redemptions` times, optionally once per customer e-mail. Codes are compared without case: one you already have is 409 ER.06.00. Every bad field is named at once (422) and nothing is made.',
    auth: 'token',
    body: promotionCreateBodySchema,
    codes: { 'OK.06.00': { data: promotionReplySchema }, 'ER.02.30': {}, 'ER.06.00': {} },
    requestExamples: {
      percent: { summary: '10 % off every link, 100 times', value: { code: 'LAUNCH10', discount: { kind: 'percent', percent: 10 }, max_redemptions: 100 } },
      fixed: {
        summary: '₱50.00 off one link, once per customer, in December',
        value: {
          code: 'XMAS50',
          discount: { kind: 'fixed', amount: '50.00', currency: 'PHP' },
          link_ids: ['lnk_0123456789abcdef0123456789abcdef'],
          valid_from: '2026-12-01T00:00:00+08:00',
          valid_until: '2027-01-01T00:00:00+08:00',
          once_per_email: true,
        },
      },
    },
  },
  {
    method: 'get',
    path: '/api/v1/promotions/{id}',
    operationId: 'getPromotion',
    tag: 'Promotion codes',
    summary: 'One of your promotion codes',
    description: 'Its discount, links, window, maximum and how many times it is redeemed now. Another integrator’s code is 404, like one that does not exist.',
    auth: 'token',
    pathParams: z.object({ id: z.string().meta({ description: 'The promotion id (promo_…).' }) }),
    codes: { 'OK.00.00': { data: promotionReplySchema }, 'ER.02.30': notFound },
  },
  {
    method: 'patch',
    path: '/api/v1/promotions/{id}',
    operationId: 'updatePromotion',
    tag: 'Promotion codes',
    summary: 'Change a promotion code',
    description:
      'Only the settings given change; `null` clears one (every link, no limit, no start or end). `active: false` deactivates the code, `true` reactivates it. The code and its discount never change: make a new code instead. A maximum below `redeemed` is 409 ER.06.20 and changes nothing.',
    auth: 'token',
    pathParams: z.object({ id: z.string().meta({ description: 'The promotion id (promo_…).' }) }),
    body: promotionUpdateBodySchema,
    codes: { 'OK.06.01': { data: promotionReplySchema }, 'ER.02.30': { http: 404, alsoHttp: [422] }, 'ER.06.20': {} },
    requestExamples: {
      deactivate: { summary: 'Stop the code', value: { active: false } },
      raise: { summary: 'Allow 200 in all', value: { max_redemptions: 200 } },
    },
  },
  {
    method: 'post',
    path: '/api/v1/events/{id}/resend',
    operationId: 'resendEvent',
    tag: 'Events and callbacks',
    summary: 'Deliver an event’s callback again',
    description:
      'Queues a new delivery attempt, due at once: the same event id, body and `webhook-id` (receivers deduplicate on it), the next attempt number. Works on delivered and failed events too. It goes to the event’s `callback_url`, or the account’s `default_callback_url` when the event had none (checked like any callback URL: 422); nowhere to go is 409 ER.13.30; another integrator’s event is 404.',
    auth: 'token',
    pathParams: z.object({ id: z.string().meta({ description: 'The event id (evt_…).' }) }),
    codes: { 'OK.13.00': { data: eventResendViewSchema }, 'ER.02.30': { http: 404, alsoHttp: [422] }, 'ER.13.30': {} },
  },
  {
    method: 'post',
    path: '/api/v1/events/test',
    operationId: 'sendTestEvent',
    tag: 'Events and callbacks',
    summary: 'Send a test event to the default callback URL',
    description:
      'Queues a `webhook.test` event (data: `message`, `sent_at`) to the account’s `default_callback_url`, signed, retried and listed in GET /api/v1/events like every event, so a receiver can be checked before a real payment. Nothing else changes. No default callback URL is 409 ER.13.30; one that is not allowed is 422.',
    auth: 'token',
    codes: { 'OK.13.01': { data: testEventViewSchema }, 'ER.02.30': { http: 422 }, 'ER.13.30': {} },
  },
  {
    method: 'post',
    path: '/api/v1/schedules/{reference}/run',
    operationId: 'runScheduleNow',
    tag: 'Schedules',
    summary: 'Sandbox: charge a schedule’s next occurrence now',
    description:
      'Charges the next occurrence through the scheduler’s own path (recorded once, the usual schedule.charge_* events, retries and suspension as for a due run) and moves `next_run_at` to the occurrence after it, like advancing a test clock. Calling it again charges the following occurrence; send an `Idempotency-Key` to make a retry of one call safe. Only the sandbox acquirer allows it (409 ER.12.32 otherwise); a cancelled or suspended schedule is 409 ER.12.33.',
    auth: 'token',
    pathParams: z.object({ reference: z.string().meta({ description: 'The schedule reference (sch_…).' }) }),
    codes: { 'OK.12.10': { data: scheduleRunNowViewSchema }, 'ER.02.30': notFound, 'ER.12.32': {}, 'ER.12.33': {} },
  },
  {
    method: 'post',
    path: '/api/v1/schedules/{reference}/resume',
    operationId: 'resumeSchedule',
    tag: 'Schedules',
    summary: 'Resume a suspended schedule',
    description:
      'A schedule the scheduler suspended (after `PAYLINK_SCHEDULE_MAX_FAILED_RUNS` failed occurrences in a row) becomes active again: its next occurrence is the first one after now (missed occurrences are not charged) and its count of failed occurrences starts again from 0. An active or cancelled schedule, or one whose card registration is no longer active, is 409 ER.12.34; another integrator’s schedule is 404.',
    auth: 'token',
    pathParams: z.object({ reference: z.string().meta({ description: 'The schedule reference (sch_…).' }) }),
    codes: { 'OK.12.11': { data: scheduleResumedViewSchema }, 'ER.02.30': notFound, 'ER.12.34': {} },
  },
  {
    method: 'patch',
    path: '/api/v1/integrator',
    operationId: 'updateIntegrator',
    tag: 'Account',
    summary: 'Set your default callback URL',
    description:
      '`default_callback_url` is where events go when the payment, schedule or card registration names no `callback_url`; `null` clears it. Checked like every callback URL (a public http(s) address; 422 naming the field). It applies to events written from then on.',
    auth: 'token',
    body: integratorUpdateSchema,
    codes: { 'OK.00.00': { data: integratorReplySchema }, 'ER.02.30': {} },
    requestExamples: {
      set: { summary: 'Set it', value: { default_callback_url: 'https://shop.example.com/paylink' } },
      clear: { summary: 'Clear it', value: { default_callback_url: null } },
    },
  },
  {
    method: 'get',
    path: '/api/v1/ping',
    operationId: 'ping',
    tag: 'Meta',
    summary: 'Liveness of the API',
    description: 'No authentication, no database.',
    auth: 'none',
    codes: { 'OK.00.00': {} },
    successExample: { code: 'OK.00.00' },
  },
  {
    method: 'get',
    path: '/api/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Meta',
    summary: 'This OpenAPI 3.1 document',
    description: 'Public and cacheable. Generated from the same zod schemas that validate requests; the reference page /docs/api renders it.',
    auth: 'none',
    codes: {},
    plainSuccess: {
      schema: z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) }),
      description: 'The OpenAPI document.',
      cache: true,
    },
  },
];
