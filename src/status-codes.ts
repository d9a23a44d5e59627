/**
 * The one status-code catalogue: the spec's codes plus paylink's own for conditions the spec
 * does not show, in the same `OK.xx.yy` / `ER.xx.yy` pattern. A leaf module (it imports nothing),
 * so the domain names codes in its errors without importing the API layer that builds envelopes. `http` is the status a response
 * carries by default (a call site may pick another the catalogue allows, e.g. ER.02.30 is 422
 * for bad fields and 404 for an unknown reference, as the spec's samples show).
 * docs/status-codes.md is generated from this table (npm run docs:status-codes, src/api/catalogue-doc.ts).
 */
export interface StatusEntry {
  http: number;
  description: string;
  /** When the code is returned. */
  when: string;
  /** Codes the spec itself defines. */
  spec?: true;
}

export const catalogue = {
  // Success
  'OK.00.00': { http: 200, description: 'Request successful', when: 'A read (GET) or other request with no more specific code succeeded.' },
  'OK.02.00': { http: 200, description: 'Full refund successful', when: 'POST /refund without `amount` refunded everything still refundable.', spec: true },
  'OK.04.00': { http: 200, description: 'Partial refund successful', when: 'POST /refund with `amount` refunded that amount.', spec: true },
  'OK.02.01': {
    http: 200,
    description: 'Full refund accepted, pending at the acquirer',
    when: 'POST /refund without `amount` was accepted by an acquirer that settles refunds later (PayMongo, Stripe): `refund_status` is `pending`, the amount stays reserved, and a refund.succeeded or refund.failed event follows.',
  },
  'OK.04.01': {
    http: 200,
    description: 'Partial refund accepted, pending at the acquirer',
    when: 'POST /refund with `amount` was accepted by an acquirer that settles refunds later: `refund_status` is `pending` until the refund.succeeded or refund.failed event.',
  },
  'OK.11.00': {
    http: 200,
    description: 'Card registration created',
    when: 'POST /card-registrations created a registration; the customer completes it on the hosted page.',
  },
  'OK.11.20': {
    http: 200,
    description: 'Card registration deletion successful',
    when: 'DELETE /schedule or /card-registration with a card registration reference deleted it and cancelled its schedules.',
    spec: true,
  },
  'OK.11.21': { http: 200, description: 'Card registration already deleted', when: 'The card registration was deleted before; nothing changed.' },
  'OK.12.00': {
    http: 200,
    description: 'Payment scheduling successful',
    when: 'POST /schedule created a schedule (or replayed the first reply for the same JWT).',
    spec: true,
  },
  'OK.12.20': { http: 200, description: 'Schedule cancellation successful', when: 'DELETE /schedule with a schedule reference cancelled it.' },
  'OK.12.21': { http: 200, description: 'Schedule already cancelled', when: 'The schedule was cancelled before; nothing changed.' },
  'OK.20.60': {
    http: 200,
    description: 'Receipt queued to be e-mailed again',
    when: "Console only: Resend receipt queued the payment's receipt e-mail for the mailer again, to the address it went to.",
  },
  'OK.13.00': {
    http: 200,
    description: 'Event queued for redelivery',
    when: 'POST /events/{id}/resend queued a new delivery attempt of the event (same id and webhook-id).',
  },
  'OK.12.11': {
    http: 200,
    description: 'Schedule resumed',
    when: 'POST /schedules/{reference}/resume made a suspended schedule active again, from its next occurrence after now.',
  },
  'OK.13.01': {
    http: 200,
    description: 'Test event queued',
    when: 'POST /events/test queued a webhook.test event to the default callback URL.',
  },
  'OK.12.10': {
    http: 200,
    description: 'Scheduled charge run now',
    when: "POST /schedules/{reference}/run (sandbox only) charged the schedule's next occurrence now.",
  },
  'OK.03.01': {
    http: 200,
    description: 'Payment started',
    when: 'A payment by QR Ph, e-wallet, online banking or BillEase started: `data.next_action_url` is where the customer authorises it, or `data.checkout_url` the page that shows the QR code.',
  },
  'OK.03.00': {
    http: 200,
    description: 'Payment successful',
    when: 'A checkout card payment succeeded; `data.transaction_id` is the transaction and `data.redirect_url` its receipt.',
  },
  'OK.06.00': {
    http: 200,
    description: 'Promotion code created',
    when: 'POST /promotions made the code; `data.promotion` is it. Customers can use it from `valid_from` on links that take codes.',
  },
  'OK.06.01': {
    http: 200,
    description: 'Promotion code changed',
    when: 'PATCH /promotions/{id} changed its window, maximum, links or state (`active: false` deactivates it); `data.promotion` is it now.',
  },
  'OK.07.00': {
    http: 200,
    description: 'Subscription cancelled',
    when: 'The customer cancelled a subscription on their subscriptions page, and it ended at once: no more charges.',
  },
  'OK.07.01': {
    http: 200,
    description: 'Subscription ends at the end of the period',
    when: 'The customer cancelled a subscription on their subscriptions page; it stays active until the end of the period paid, then ends without another charge.',
  },
  'OK.07.03': {
    http: 200,
    description: 'Subscription card replaced',
    when: 'The customer gave another card for a subscription on their subscriptions page; the acquirer verified and kept it, and the next charges use it.',
  },
  'OK.07.04': {
    http: 200,
    description: 'Free trial started',
    when: 'The customer started a subscription link’s free trial: the card was verified and kept, nothing was charged, and the schedule’s first charge is at the trial’s end (`data.first_charge_at`).',
  },
  'OK.07.02': {
    http: 200,
    description: 'Subscriptions page link requested',
    when: 'A customer asked for a link to their subscriptions page. The same answer whether the address has subscriptions or not; a link is e-mailed only when it has.',
  },

  // Client errors (request shape, authentication, protocol)
  'ER.01.00': {
    http: 401,
    description: 'Authentication failed: missing or unknown Authorization token',
    when: 'The Authorization header is missing, malformed, or names no integrator.',
  },
  'ER.01.01': {
    http: 401,
    description: 'Authentication failed: invalid link key',
    when: "A dynamic payment link request carries a `key` that is neither the link key nor the API token of the link's integrator.",
  },
  'ER.01.02': {
    http: 429,
    description: 'Too many failed authentication attempts',
    when: 'Requests from this client address carried too many unknown API tokens or link keys; `Retry-After` says when to try again.',
  },
  'ER.01.03': {
    http: 429,
    description: 'Too many failed sign-in attempts',
    when: 'Too many console sign-ins from this client address failed (PAYLINK_LIMIT_SIGN_IN_FAILURES); `Retry-After` says when to try again.',
  },
  'ER.01.30': {
    http: 403,
    description: 'This key can only create payment links',
    when: 'An /api/v1 request carries a publishable link key (`pk_link_…`) as its Authorization: send the API token there; the link key belongs only in the `key` of POST /pay/{slug}.',
  },
  'ER.01.40': {
    http: 403,
    description: 'Integrator suspended',
    when: "The integrator whose API token or link key this is has been suspended by paylink's operator: nothing that takes new money is accepted (links, checkouts, schedules, card registrations, runs); reads, refunds of past payments and cancellations still work. Contact the operator; nothing was changed.",
  },
  'ER.01.04': {
    http: 503,
    description: 'Too many sign-ins are being checked',
    when: 'More console sign-ins are waiting for their password check than PAYLINK_PASSWORD_CHECK_QUEUE allows, and no place came free within the second the sign-in was held; nothing was checked or counted, and `Retry-After` says when to try again.',
  },
  'ER.01.05': {
    http: 423,
    description: 'Console account locked',
    when: "A signed-in console user's password or TOTP code, asked again before a change to their account, was wrong too often: the account is locked (PAYLINK_CONSOLE_LOCKOUT_MINUTES) and its sessions end.",
  },
  'ER.01.50': {
    http: 409,
    description: 'Two-step sign-in is off',
    when: 'A console user asked for new recovery codes while their two-step sign-in (TOTP) is off: recovery codes are made when it is turned on.',
  },
  'ER.01.51': {
    http: 409,
    description: 'No two-step sign-in to reset',
    when: "An owner asked to reset another console user's two-step sign-in while that user has none on: nothing was changed.",
  },
  // The operator console (area 05)
  'ER.05.00': {
    http: 404,
    description: 'Operator setup link not usable',
    when: "An operator setup link (/operator/setup/{token}) was used already, has expired (24 hours), or is the start banner's while an operator exists: ask for a new one with `npm run admin -- create-operator EMAIL`.",
  },
  'ER.05.20': {
    http: 409,
    description: 'Integrator already suspended',
    when: "The operator console's Suspend on an integrator that is suspended already (another tab, another operator, the shell): nothing changed; its page shows since when and why.",
  },
  'ER.05.21': {
    http: 409,
    description: 'Integrator not suspended',
    when: "The operator console's Reactivate on an integrator that is active already: nothing changed.",
  },
  'ER.01.20': {
    http: 401,
    description: 'Provider webhook not verified',
    when: "POST /webhooks/{provider}/{id} whose signature does not verify with the integrator's webhook secret for that acquirer (or has none).",
  },
  'ER.01.21': {
    http: 401,
    description: 'Provider webhook outside the time tolerance',
    when: 'POST /webhooks/{provider}/{id} whose signature verifies but was made more than PAYLINK_PROVIDER_WEBHOOK_TOLERANCE_SECONDS (300) before or after paylink’s clock: a replay, or a clock far off.',
  },
  'ER.01.10': {
    http: 422,
    description: 'Invalid signed payload',
    when: "The schedule `payload` is not a JWT signed with HS256 by the integrator's secret, or it is expired, not yet valid, or issued in the future.",
  },
  'ER.02.30': {
    http: 422,
    description: 'Invalid client request due to invalid parameters',
    when: 'A field is missing or invalid (422, with `messages`), or a referenced object does not exist for this integrator (404).',
    spec: true,
  },
  'ER.02.31': { http: 400, description: 'Malformed JSON body', when: 'The body is not valid JSON, or not a JSON object.' },
  'ER.02.32': { http: 415, description: 'Unsupported content type', when: 'The body is not sent as application/json.' },
  'ER.02.33': {
    http: 413,
    description: 'Request body too large',
    when: 'The body exceeds 64 KiB (a JSON body), 256 KiB (a provider webhook) or 1 MiB (link settings, and any body at all).',
  },
  'ER.02.34': { http: 404, description: 'Resource not found', when: 'No API route matches the path, or the path’s percent-encoding does not decode.' },
  'ER.02.35': {
    http: 405,
    description: 'Method not allowed',
    when: 'The route exists but not for this method, or no route takes the method (TRACE, PROPFIND, …); `Allow` lists the methods it takes.',
  },
  'ER.02.40': {
    http: 422,
    description: 'Idempotency key reused with a different request',
    when: 'An `Idempotency-Key` was first used with another method, path or body.',
  },
  'ER.02.41': {
    http: 409,
    description: 'Idempotent request still in progress',
    when: 'A request with the same `Idempotency-Key` is still being processed; retry after `Retry-After` seconds (its claim lapses within 10 s if its process died).',
  },
  'ER.02.42': { http: 400, description: 'Invalid idempotency key', when: 'The `Idempotency-Key` header is empty or longer than 255 characters.' },
  'ER.02.43': {
    http: 429,
    description: 'Too many requests',
    when: 'The integrator sent more API requests than its rate limit allows; `Retry-After` says when to try again.',
  },
  'ER.02.44': {
    http: 403,
    description: 'Cross-site request refused',
    when: "A payment or card form submission came from another site's page (Sec-Fetch-Site or Origin), not from paylink's own page.",
  },
  'ER.02.70': {
    http: 429,
    description: 'Too many QR codes drawn',
    when: 'A client address had more QR codes drawn (`/pay/{slug}/qr.svg|png` not already in memory) than PAYLINK_LIMIT_QR_RENDERS allows; `Retry-After` says when to try again.',
  },

  // Payment links and checkout
  'ER.03.10': { http: 404, description: 'Payment link not found', when: 'No active payment link has this address.' },
  'ER.03.11': {
    http: 410,
    description: 'Payment link expired',
    when: "The link's `expires_at` has passed: it no longer accepts payments or new dynamic links.",
  },
  'ER.03.12': {
    http: 410,
    description: 'Payment link already paid',
    when: 'The link reached its `max_payments` successful payments (1: single use); a card attempt in progress holds a place until it is declined.',
  },
  'ER.03.13': {
    http: 422,
    description: 'Payment link allows no payment method',
    when: "A link's `payment_methods` is empty, or it names none (null) while the integrator's `default_payment_methods` name only methods its acquirer does not take: its page could offer no way to pay. Nothing was saved.",
  },
  'ER.03.20': { http: 404, description: 'Checkout session not found', when: 'The checkout token is unknown.' },
  'ER.03.21': { http: 410, description: 'Checkout session expired', when: 'The checkout link is past its expiry; ask the merchant for a new one.' },
  'ER.03.22': { http: 409, description: 'Checkout session already paid', when: 'The session was paid; it can never be charged again.' },
  'ER.03.23': { http: 429, description: 'Too many payment attempts', when: 'The session reached its limit of card attempts and is locked.' },
  'ER.03.24': {
    http: 409,
    description: 'Payment already in progress',
    when: 'Another card attempt on this checkout is still at the acquirer; wait for its answer instead of paying again.',
  },
  'ER.03.25': {
    http: 429,
    description: 'Too many card attempts',
    when: 'A velocity limit on card attempts was reached (per client address, per payment link, or declines of one card); `Retry-After` says when to try again.',
  },
  'ER.03.26': {
    http: 409,
    description: 'Card form not available',
    when: "The payment form posted to the flow of another acquirer than the merchant's (e.g. a card number to a PayMongo merchant's page, or a PayMongo start to a sandbox merchant's, or a card number to the registration page of a merchant on Stripe): reload the page.",
  },
  'ER.03.40': {
    http: 409,
    description: 'Payment method not available',
    when: "The payment page asked for a method this link does not offer or the merchant's acquirer does not take (or not in this currency); `messages.method` says which. Reload the page and choose another.",
  },
  'ER.03.30': {
    http: 200,
    description: 'Card payment declined',
    when: 'The acquirer declined the card; `data.decline_code` and `messages` say why in plain words.',
  },
  'ER.03.31': {
    http: 422,
    description: 'Payment refused by the acquirer',
    when: "The merchant's acquirer refused to start the payment (e.g. PayMongo answered 400 to the payment intent or the hosted checkout session: an amount or a method its account does not take), or refused a QR Ph, e-wallet, online banking or BillEase payment as it started (`data.decline_code`). Nothing was charged and the attempt is free again: choose a way to pay again; `messages` says so in plain words and `data.reason` carries the acquirer's code where it gave one.",
  },

  // Refunds
  'ER.20.20': {
    http: 200,
    description: 'Unable to process client request because the transaction is already refunded',
    when: 'Nothing is left to refund on the transaction.',
    spec: true,
  },
  'ER.20.21': {
    http: 200,
    description: 'Refund amount exceeds the refundable amount',
    when: 'A PARTIAL refund asks for more than remains refundable; `messages.amount` says how much remains.',
  },
  'ER.20.22': { http: 200, description: 'Transaction cannot be refunded', when: 'The transaction failed or was never paid.' },
  'ER.20.23': {
    http: 200,
    description: 'Refund type not available for this card brand',
    when: "The integrator's account does not allow this refund type (FULL/PARTIAL) for the card brand.",
  },
  'ER.20.24': { http: 200, description: 'Refund limit reached', when: 'The transaction already has the maximum number of refunds.' },
  'ER.20.25': { http: 200, description: 'Refund window closed', when: 'The transaction is older than the refund window.' },
  'ER.20.27': {
    http: 200,
    description: "Refund not possible with the integrator's acquirer",
    when: "The integrator's acquirer cannot make this refund: its refund window for the payment's method has passed (PayMongo: cards 60 days, GCash 180) or it refunds that method only in whole payments. `data.payment_method` names the method and `data.refusal_reason` is `window` or `partial`; `messages.transaction_id` says it in words. Nothing was reserved or sent.",
  },
  'ER.20.28': {
    http: 200,
    description: 'Payment method cannot be refunded',
    when: "The transaction was paid by a method the integrator's acquirer cannot refund at all (PayMongo: QR Ph, UnionBank online banking): return the money to the customer another way. `data.payment_method` names the method, `data.bank` the bank for online banking, and `data.refusal_reason` is `method`. Nothing was reserved or sent.",
  },
  'ER.20.26': {
    http: 200,
    description: 'Refund declined by the acquirer',
    when: 'The acquirer refused the refund; the refund is recorded as failed with its reason and the balance is unchanged.',
  },
  'ER.20.40': {
    http: 403,
    description: 'Refund above your per-refund limit',
    when: "Console only: a staff member asked for a refund above the most an owner lets staff refund at once in the payment's currency (Users page, Staff refund limits). Nothing was reserved or sent; `messages.amount` names the limit. Owners and API refunds are not limited.",
  },
  'ER.20.41': {
    http: 403,
    description: 'Refund above your daily limit',
    when: "Console only: the refund would take the staff member's refunds (pending or succeeded) in the last 24 hours in that currency above the daily limit an owner set. Nothing was reserved or sent; `messages.amount` says how much was refunded and how much is left.",
  },
  'ER.20.60': {
    http: 409,
    description: 'Payment has no receipt e-mail',
    when: 'Console only: Resend receipt on a payment whose customer was never e-mailed a receipt (no e-mail address, or notify_user was false). Nothing was sent.',
  },
  'ER.20.61': {
    http: 409,
    description: 'Receipt e-mail is already waiting to be sent',
    when: 'Console only: Resend receipt while the receipt e-mail still waits for the mailer (first send or a retry). Nothing changed; it goes out shortly.',
  },
  'ER.20.62': {
    http: 429,
    description: 'Too many receipt resends',
    when: 'Console only: the receipt of this payment was sent again 3 times in the last hour. Nothing was sent; try again later (`Retry-After`).',
  },
  'ER.20.42': {
    http: 409,
    description: 'The refund changed since it was confirmed',
    when: 'Console only: the amount a refund would make is no longer the one confirmed (another refund of the payment was made in between). Nothing was refunded; review it again.',
  },

  // Promotion codes
  'ER.06.00': {
    http: 409,
    description: 'A promotion code with this code exists',
    when: 'A promotion was created with a code the merchant already has (codes are compared without case). Nothing was created; choose another code or change the existing one.',
  },
  'ER.06.01': {
    http: 409,
    description: 'The promotion code is used up',
    when: 'The code reached its maximum number of redemptions, here or in a payment made at the same moment. Nothing was charged or redeemed; pay without it or with another code.',
  },
  'ER.06.02': {
    http: 409,
    description: 'The promotion code was used by this customer',
    when: 'The code may be used once per customer e-mail address, and this address holds a redemption of it. Nothing was charged or redeemed.',
  },
  'ER.06.03': {
    http: 422,
    description: 'The promotion code does not apply',
    when: 'The code typed on a payment page does not exist, is not valid now, is for other links or another currency, needs the customer e-mail first, or would make the payment free; `messages.promo_code` says which. Nothing was charged or redeemed; pay without it or with another code.',
  },
  'ER.06.04': {
    http: 429,
    description: 'Too many promotion codes tried',
    when: 'Too many codes were tried on this payment page from the client network (guessing codes). Nothing was checked; try again after `Retry-After`.',
  },
  'ER.06.08': {
    http: 422,
    description: 'The promotion code brings the total below the smallest payment',
    when: 'With the code typed on a payment page, the total would be below the smallest amount the merchant’s acquirer takes for the way to pay (PayMongo’s ₱20.00, Stripe’s minimum for the currency); `messages.promo_code` says the minimum. Nothing was charged or redeemed; pay without the code, or buy more.',
  },
  'ER.06.09': {
    http: 422,
    description: 'The total is below the smallest payment',
    when: 'The items chosen on a payment page (with their tip) come to less than the smallest amount the merchant’s acquirer takes for the way to pay; `messages.total` (or `messages.amount` for a typed amount) says the minimum. Nothing was charged; choose more.',
  },
  'ER.06.20': {
    http: 409,
    description: 'The maximum is below the redemptions made',
    when: 'A promotion code’s maximum redemptions was set below the number it has redeemed. Nothing changed; set it at or above `redeemed`, or deactivate the code to stop further use.',
  },

  // Subscriptions (customer pages)
  'ER.07.00': {
    http: 403,
    description: 'Subscriptions page link not valid',
    when: 'The link to a customer’s subscriptions page was changed, cut or has expired. Nothing is shown; the page offers to e-mail a new link.',
  },
  'ER.07.01': {
    http: 404,
    description: 'Subscription not found',
    when: 'A cancel or change named a subscription that is not the customer’s (another address or merchant, or none). Nothing changed.',
  },
  'ER.07.02': {
    http: 429,
    description: 'Too many requests for a subscriptions page link',
    when: 'New links to a subscriptions page were asked too often from this address or for this e-mail. Nothing was sent; try again later.',
  },
  'ER.07.03': {
    http: 200,
    description: 'Card declined for a free trial',
    when: 'The acquirer refused to verify the card given for a subscription link’s free trial; `data.decline_code` and `messages` say why. Nothing started and nothing was charged.',
  },
  'ER.07.06': {
    http: 503,
    description: 'Card form unavailable',
    when: 'The customer asked to replace a subscription’s card, and the acquirer (Stripe) could not be reached to prepare its card form. Nothing changed; try again in a moment.',
  },

  // Card registrations and schedules
  'ER.11.30': {
    http: 200,
    description: 'Card verification failed',
    when: 'The card could not be verified for registration; the customer may try another card.',
  },
  'ER.11.31': {
    http: 409,
    description: "Card registration not available with the integrator's acquirer",
    when: "POST /card-registration when the integrator's acquirer charges saved cards off-session but paylink cannot yet collect one with it. (Acquirers without off-session charges, e.g. PayMongo, get pay-by-link registrations instead.)",
  },
  'ER.12.35': {
    http: 409,
    description: "Scheduled charges not available with the integrator's acquirer",
    when: "POST /schedule with a saved-card registration when the integrator's acquirer cannot charge a saved card off-session for paylink (PayMongo cards, e.g. after a switch from the sandbox); register the customer again as pay-by-link.",
  },
  'ER.13.30': {
    http: 409,
    description: 'Event has no callback URL',
    when: 'POST /events/{id}/resend for an event with no callback_url, or POST /events/test, when the account has no default callback URL either; set one with PATCH /integrator.',
  },
  'ER.12.32': {
    http: 409,
    description: 'Only the sandbox acquirer can run a schedule now',
    when: "POST /schedules/{reference}/run when the integrator's acquirer is not the sandbox: real charges happen only when due.",
  },
  'ER.12.33': {
    http: 409,
    description: 'Schedule is not active',
    when: 'POST /schedules/{reference}/run for a cancelled or suspended schedule, one whose card registration is no longer active or keeps no card (pay-by-link), or one with a charge already in progress.',
  },
  'ER.12.34': {
    http: 409,
    description: 'Schedule is not suspended',
    when: 'POST /schedules/{reference}/resume for an active or cancelled schedule, or one whose card registration is no longer active.',
  },
  'ER.12.30': { http: 200, description: 'Card registration is not active', when: 'The card registration is pending or deleted.' },
  'ER.12.31': {
    http: 409,
    description: 'Schedule for this signed payload was cancelled',
    when: 'POST /schedule with a payload (same signed header and claims) whose schedule was cancelled; sign a new payload to schedule again.',
  },

  // Server
  'ER.99.00': { http: 500, description: 'Internal server error', when: 'Something unexpected failed; the response carries a request id to quote to support.' },
  'ER.99.01': {
    http: 503,
    description: 'Service unavailable',
    when: 'The database could not be reached (connection refused or lost, server shutting down, pool closed); `Retry-After` says when to retry.',
  },
  'ER.99.02': {
    http: 503,
    description: 'paylink is starting',
    when: 'The process listens but has not finished starting (migrations, provisioning, workers): GET /readyz says when it is ready; `Retry-After` says when to retry.',
  },
} as const satisfies Record<string, StatusEntry>;

export type StatusCode = keyof typeof catalogue;
