/**
 * Generated from paylink's OpenAPI document by `npm run client:generate` (openapi-typescript).
 * Do not edit by hand: a test fails when this file is stale.
 */

export interface paths {
    "/pay/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a checkout from a dynamic payment link
         * @description POST payment data to the link's own address with your publishable link key (`pk_link_…`, Console → Developers, or `link_key` in GET /api/v1/integrator) in `key` (no Authorization header). The link key creates checkouts and nothing else, so it may ship in a web page or an app; the secret API token is still accepted as `key` for clients written before link keys. The answer is `{ "link" }`, the checkout page to send the customer to, not the envelope. Fields the link marks as system-filled are shown read-only. Which fields are required depends on the link (docs/payment-links.md).
         */
        post: operations["createDynamicLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/{token}/pay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pay a checkout with a card (the checkout page’s form)
         * @description What the checkout page sends when the customer pays: the card and the customer fields the page asks for. Same-origin JSON only: a request from another site’s page is refused (ER.02.44). A decline is HTTP 200 with ER.03.30. On a subscription link with a free trial nothing is charged: OK.07.04 when the card is verified and the trial started, ER.07.03 when it is declined.
         */
        post: operations["payCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pay/{slug}/pay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pay a static payment link with a card (the link page’s form)
         * @description What the static link page sends when the customer pays: `session` (the page’s ticket), the amount on an open-amount link, the customer fields and the card. Same-origin JSON only.
         */
        post: operations["payStaticLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/{token}/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The running total of what the customer chose (the page’s summary)
         * @description For a link that sells items, takes a tip or a promotion code: what the quantities, tip and code come to, worded in the page’s language (`amount_locale`): `say` holds the summary’s lines (`sum.subtotal`, `sum.discount_label`, `sum.discount`, `sum.applied`, `sum.tip_label`, `sum.tip`, `sum.total`; absent ones not shown) and a message per wrong field (`quantity.<id>`, `tip`, `tip_amount`, `promo_code`). Nothing is stored or redeemed; a code that does not exist counts against the client like on a payment. Same-origin JSON, or the page’s form fields.
         */
        post: operations["quoteCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pay/{slug}/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The running total of what the customer chose (the page’s summary)
         * @description For a link that sells items, takes a tip or a promotion code: what the quantities, tip and code come to, worded in the page’s language (`amount_locale`): `say` holds the summary’s lines (`sum.subtotal`, `sum.discount_label`, `sum.discount`, `sum.applied`, `sum.tip_label`, `sum.tip`, `sum.total`; absent ones not shown) and a message per wrong field (`quantity.<id>`, `tip`, `tip_amount`, `promo_code`). Nothing is stored or redeemed; a code that does not exist counts against the client like on a payment. Same-origin JSON, or the page’s form fields.
         */
        post: operations["quoteStaticLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/checkout/{token}/provider": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a payment whose card goes to the acquirer (the PayMongo card form)
         * @description For a merchant on PayMongo: the customer fields (no card). paylink claims the attempt and creates the PaymentIntent; the answer has what the browser needs to give the card to PayMongo (docs/acquirers.md). Same-origin JSON only. A sandbox merchant’s checkout is ER.03.26.
         */
        post: operations["startProviderCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pay/{slug}/provider": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a static link payment whose card goes to the acquirer (the PayMongo card form)
         * @description As POST /checkout/{token}/provider, for a static link: `session` is the page’s ticket.
         */
        post: operations["startProviderStaticLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{provider}/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An acquirer’s webhook for one integrator (PayMongo)
         * @description Register this address at the acquirer (the console’s Developers page shows it). Verified with the integrator’s webhook secret for that acquirer (ER.01.20 otherwise, under the provider’s signature header), and its signature time within PAYLINK_PROVIDER_WEBHOOK_TOLERANCE_SECONDS of the server’s clock either way (ER.01.21 otherwise); a duplicate event id at the same integrator changes nothing; a late event never moves a payment or refund backwards.
         */
        post: operations["receiveProviderWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/register/{token}/card": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register a card (the hosted card registration page’s form)
         * @description What the hosted card page sends: the card. The sandbox verifies it; the registration becomes active (OK.11.00) or stays pending (ER.11.30). A registration of a merchant on Stripe takes the card in Stripe’s Payment Element instead: a card sent here is ER.03.26 and goes nowhere.
         */
        post: operations["submitRegistrationCard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/refund": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refund a payment, in full or in part
         * @description Without `amount`: a FULL refund of everything still refundable (OK.02.00). With `amount`: a PARTIAL refund (OK.04.00). With an acquirer that settles refunds later (PayMongo, Stripe), OK.02.01 / OK.04.01 with `refund_status: pending`: the amount stays reserved until the refund.succeeded or refund.failed event; ER.20.27 when that acquirer cannot make this refund for the payment’s method (its refund window for the method has passed, or it refunds the method only in whole payments); ER.20.28 when it cannot refund the payment’s method at all (PayMongo: QR Ph) or its bank (UnionBank online banking, with `data.bank`). Both are refused before anything is reserved, with `data.payment_method`, `data.refusal_reason` (`method`, `partial` or `window`) and a message naming both. Business refusals arrive with HTTP 200 and an ER.20.xx code: decide from `data.status_code` as well as the HTTP status.
         */
        post: operations["refundPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/transactions/{transaction_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A payment with its refunds, amounts and states
         * @description For reconciliation: what was paid, refunded, is pending and may still be refunded, with every refund.
         */
        get: operations["getTransaction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/card-registrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your card registrations, newest first
         * @description Filter by `status` or `customer_email` (case-insensitive). Newest first (`created_at`, then id, descending). Page with `starting_after` = the page’s `next_cursor` (older) or `ending_before` = its `previous_cursor` (newer); `limit` 1–100 (default 20); `created_gte` / `created_lt` bound the creation time. Filters are exact. A cursor that is not one of your objects in this list is 404; an unknown parameter or a bad value is 422 naming it.
         */
        get: operations["listCardRegistrations"];
        put?: never;
        /**
         * Start a card registration
         * @description Returns the registration `reference` (a UUID, what a schedule names) and `link`, the hosted page where the customer enters the card (for a merchant on Stripe, in Stripe’s Payment Element: Stripe keeps the card). ER.11.31 when the merchant’s acquirer keeps no cards for later charges (PayMongo).
         */
        post: operations["createCardRegistration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/card-registrations/{reference}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A card registration: state, brand, last 4 and expiry
         * @description Never the card number. `pending` until the customer completes the hosted page, then `active`; `deleted` after DELETE.
         */
        get: operations["getCardRegistration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/card-registration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a card registration and cancel its schedules
         * @description OK.11.20 when deleted now (with the schedules it cancelled), OK.11.21 when it was deleted before.
         */
        delete: operations["deleteCardRegistration"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Schedule recurring charges of a registered card
         * @description The body carries `payload`, a JWT (HS256, signed with your JWT secret) whose `data` claim holds the card reference, the six recurrence fields, the payment, the route and the UTC offset (docs/schedules.md). The same payload again answers with the first reference.
         */
        post: operations["createSchedule"];
        /**
         * Cancel a schedule, or delete a card registration
         * @description A schedule reference (sch_…) cancels that schedule (OK.12.20, or OK.12.21 when cancelled before); a card registration reference deletes the registration and cancels its schedules (OK.11.20 / OK.11.21).
         */
        delete: operations["cancelSchedule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules/{reference}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A schedule: state, recurrence, next run and its runs
         * @description Times are in the schedule’s own UTC offset; each run names the transaction it charged.
         */
        get: operations["getSchedule"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your events and their callback and e-mail delivery state
         * @description Newest first, like every list: pass `next_cursor` as `starting_after` for the next (older) page, `previous_cursor` as `ending_before` for the previous one. With `after` (an event id or an ISO 8601 timestamp) it is the legacy feed instead: oldest first, `data.events`, and the page’s `next_after` as `after` for the next page while `has_more` is true (50 a page by default); `after` cannot be combined with the cursors or `created_*`. A cursor that is not one of your events is 404.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook-secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A new webhook secret
         * @description Returned once. The previous secret keeps signing callbacks for 24 hours beside the new one. Not replayed by Idempotency-Key.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/integrator": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your account
         * @description A cheap way to check a token works.
         */
        get: operations["getIntegrator"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set your default callback URL
         * @description `default_callback_url` is where events go when the payment, schedule or card registration names no `callback_url`; `null` clears it. Checked like every callback URL (a public http(s) address; 422 naming the field). It applies to events written from then on.
         */
        patch: operations["updateIntegrator"];
        trace?: never;
    };
    "/api/v1/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your transactions, newest first
         * @description Filter by `status`, `payment_method` (card, qrph, gcash, paymaya, grab_pay, shopeepay, dob, brankas, billease), `link` (a slug; one not yours matches nothing), `merchant_reference_id` or `customer_email` (case-insensitive). Each carries who paid (`customer`), how (`payment_method`, and `card` with brand and last four for cards) and the link or schedule it came from. Newest first (`created_at`, then id, descending). Page with `starting_after` = the page’s `next_cursor` (older) or `ending_before` = its `previous_cursor` (newer); `limit` 1–100 (default 20); `created_gte` / `created_lt` bound the creation time. Filters are exact. A cursor that is not one of your objects in this list is 404; an unknown parameter or a bad value is 422 naming it.
         */
        get: operations["listTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your refunds, newest first
         * @description Filter by `status`, `transaction_id` or `payment_method` (how the refunded transaction was paid). Each carries its transaction’s references, link, customer and `payment_method`. Newest first (`created_at`, then id, descending). Page with `starting_after` = the page’s `next_cursor` (older) or `ending_before` = its `previous_cursor` (newer); `limit` 1–100 (default 20); `created_gte` / `created_lt` bound the creation time. Filters are exact. A cursor that is not one of your objects in this list is 404; an unknown parameter or a bad value is 422 naming it.
         */
        get: operations["listRefunds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your schedules, newest first
         * @description Filter by `status`, `merchant_reference_id`, `card_registration_reference` or `customer_email` (the card’s). Runs are not listed: read one schedule for them. Newest first (`created_at`, then id, descending). Page with `starting_after` = the page’s `next_cursor` (older) or `ending_before` = its `previous_cursor` (newer); `limit` 1–100 (default 20); `created_gte` / `created_lt` bound the creation time. Filters are exact. A cursor that is not one of your objects in this list is 404; an unknown parameter or a bad value is 422 naming it.
         */
        get: operations["listSchedules"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your payment links, newest first
         * @description Filter by `active` (`true` or `false`) or `currency`. Newest first (`created_at`, then id, descending). Page with `starting_after` = the page’s `next_cursor` (older) or `ending_before` = its `previous_cursor` (newer); `limit` 1–100 (default 20); `created_gte` / `created_lt` bound the creation time. Filters are exact. A cursor that is not one of your objects in this list is 404; an unknown parameter or a bad value is 422 naming it.
         */
        get: operations["listLinks"];
        put?: never;
        /**
         * Create a payment link
         * @description A static link (payable at its `url` as it is) or, when some field is `system`-filled, a dynamic one (paid only through the dynamic POST to /pay/{slug}). Without `slug` one is generated. Give `amount` for a fixed amount or `min_amount`/`max_amount` for one the customer enters. A `logo` is a `data:` URL (PNG, JPEG, WebP or SVG, at most 512 KiB); the body may be up to 1 MiB. Every setting is checked at once: a refusal is 422 naming each field (a slug already taken too) and writes nothing.
         */
        post: operations["createLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/links/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One of your payment links
         * @description Its settings, `kind` (static or dynamic) and payment page `url`. Another integrator’s link is 404, like one that does not exist.
         */
        get: operations["getLink"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a payment link
         * @description Only the settings given change; `null` clears one. `active: false` deactivates the link (its page answers 404), `true` reactivates it. Giving `amount` clears a range and giving `min_amount`/`max_amount` clears a fixed amount. The slug never changes. A change shows on /pay/{slug} at once.
         */
        patch: operations["updateLink"];
        trace?: never;
    };
    "/api/v1/promotions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your promotion codes, newest first
         * @description Filter by `active` (`true` or `false`). Paged like every list: `starting_after` / `ending_before` with the page’s cursors, `limit` 1–100 (default 20), `created_gte` / `created_lt`. `redeemed` counts the redemptions held now.
         */
        get: operations["listPromotions"];
        put?: never;
        /**
         * Create a promotion code
         * @description A percentage off (1–100) or a fixed amount off in one currency (a decimal, e.g. "50.00"; it applies only to links in that currency), for every link or the links named in `link_ids`, within `valid_from` (inclusive) and `valid_until` (exclusive), at most `max_redemptions` times, optionally once per customer e-mail. Codes are compared without case: one you already have is 409 ER.06.00. Every bad field is named at once (422) and nothing is made.
         */
        post: operations["createPromotion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/promotions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One of your promotion codes
         * @description Its discount, links, window, maximum and how many times it is redeemed now. Another integrator’s code is 404, like one that does not exist.
         */
        get: operations["getPromotion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a promotion code
         * @description Only the settings given change; `null` clears one (every link, no limit, no start or end). `active: false` deactivates the code, `true` reactivates it. The code and its discount never change: make a new code instead. A maximum below `redeemed` is 409 ER.06.20 and changes nothing.
         */
        patch: operations["updatePromotion"];
        trace?: never;
    };
    "/api/v1/events/{id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver an event’s callback again
         * @description Queues a new delivery attempt, due at once: the same event id, body and `webhook-id` (receivers deduplicate on it), the next attempt number. Works on delivered and failed events too. It goes to the event’s `callback_url`, or the account’s `default_callback_url` when the event had none (checked like any callback URL: 422); nowhere to go is 409 ER.13.30; another integrator’s event is 404.
         */
        post: operations["resendEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event to the default callback URL
         * @description Queues a `webhook.test` event (data: `message`, `sent_at`) to the account’s `default_callback_url`, signed, retried and listed in GET /api/v1/events like every event, so a receiver can be checked before a real payment. Nothing else changes. No default callback URL is 409 ER.13.30; one that is not allowed is 422.
         */
        post: operations["sendTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules/{reference}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sandbox: charge a schedule’s next occurrence now
         * @description Charges the next occurrence through the scheduler’s own path (recorded once, the usual schedule.charge_* events, retries and suspension as for a due run) and moves `next_run_at` to the occurrence after it, like advancing a test clock. Calling it again charges the following occurrence; send an `Idempotency-Key` to make a retry of one call safe. Only the sandbox acquirer allows it (409 ER.12.32 otherwise); a cancelled or suspended schedule is 409 ER.12.33.
         */
        post: operations["runScheduleNow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules/{reference}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a suspended schedule
         * @description A schedule the scheduler suspended (after `PAYLINK_SCHEDULE_MAX_FAILED_RUNS` failed occurrences in a row) becomes active again: its next occurrence is the first one after now (missed occurrences are not charged) and its count of failed occurrences starts again from 0. An active or cancelled schedule, or one whose card registration is no longer active, is 409 ER.12.34; another integrator’s schedule is 404.
         */
        post: operations["resumeSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness of the API
         * @description No authentication, no database.
         */
        get: operations["ping"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI 3.1 document
         * @description Public and cacheable. Generated from the same zod schemas that validate requests; the reference page /docs/api renders it.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        BillingAddress: {
            /** @description Street address, first line. */
            line1: string | null;
            /** @description Street address, second line. */
            line2: string | null;
            /** @description City or municipality. */
            city_municipality: string | null;
            /** @description State, province or region. */
            state_province_region: string | null;
            /** @description Postal code. */
            zip: string | null;
            /** @description ISO 3166-1 alpha-2 country code. */
            country_code: string | null;
        };
        CardRegistration: {
            /** Format: uuid */
            reference: string;
            /** @enum {string} */
            status: "pending" | "active" | "deleted";
            /**
             * @description How its schedules collect: `saved_card` charges the card off-session; `pay_link` (acquirers without off-session charges, e.g. PayMongo) e-mails the customer a payment link each occurrence, and `card` stays null.
             * @enum {string}
             */
            collection: "saved_card" | "pay_link";
            customer: {
                name: string | null;
                email: string | null;
            };
            card: {
                brand: string | null;
                last4: string | null;
                exp_month: number | null;
                exp_year: number | null;
            } | null;
            /** Format: date-time */
            created_at: string;
            /** @description While pending: when the hosted page stops accepting a card. */
            expires_at: string | null;
            activated_at: string | null;
            deleted_at: string | null;
        };
        /** @description The customer as given on the payment; null fields were not given. */
        Customer: {
            /** @description Given name. */
            first_name: string | null;
            /** @description Family name. */
            last_name: string | null;
            /** @description The full name as one string (first and last name, or the card registration’s customer name). */
            name: string | null;
            /** @description E-mail address. */
            email: string | null;
            /** @description Mobile number with its leading plus sign. */
            mobile: string | null;
            /** @description Billing (or shipping) address as given; null when none was given. */
            billing_address: components["schemas"]["BillingAddress"] | null;
        };
        Event: {
            /** @description evt_…: equals the `webhook-id` header of its callbacks. */
            id: string;
            /** @enum {string} */
            type: "payment.succeeded" | "payment.failed" | "refund.succeeded" | "refund.failed" | "card_registration.completed" | "card_registration.deleted" | "schedule.created" | "schedule.cancelled" | "schedule.resumed" | "schedule.charge_succeeded" | "schedule.charge_failed" | "schedule.suspended" | "schedule.payment_link_sent" | "schedule.payment_link_expired" | "webhook.test" | "subscription.page_link";
            /** Format: date-time */
            created_at: string;
            /** @description The event’s fields, as its callback carries them (docs/callbacks.md). */
            data: {
                [key: string]: unknown;
            };
            callback: {
                url: string | null;
                /**
                 * @description `no_destination`: neither the event’s source nor the account (default_callback_url) named a callback URL, so it was sent to no one; POST /api/v1/events/{id}/resend sends it once a default is set.
                 * @enum {string}
                 */
                state: "no_destination" | "pending" | "delivered" | "failed";
                attempts: number;
                next_attempt_at: string | null;
                delivered_at: string | null;
                attempt_log: {
                    attempt: number;
                    /** Format: date-time */
                    started_at: string;
                    status_code: number | null;
                    latency_ms: number | null;
                    error: string | null;
                }[];
            };
            email: {
                /**
                 * @description none: no e-mail; pending: queued or retrying; sent: handed to the mail server; saved: not e-mailed, because no mail server is set (written as a file on the server); failed: gave up.
                 * @enum {string}
                 */
                state: "none" | "pending" | "sent" | "saved" | "failed";
                attempts: number;
                next_attempt_at: string | null;
                sent_at: string | null;
                last_error: string | null;
            };
        };
        Integrator: {
            id: string;
            name: string;
            email: string;
            /** @description The publishable link key (`pk_link_…`): the `key` of POST /pay/{slug}, which creates checkouts and nothing else. Every /api/v1 route refuses it (ER.01.30). */
            link_key: string;
            /** @description Refund types allowed per card brand; `default` applies to brands not listed. */
            refund_capabilities: {
                [key: string]: "full_partial" | "full" | "none";
            };
            /** @description Where events go when nothing else names a callback URL. */
            default_callback_url: string | null;
            /** @description Shown to customers on payment pages; the Reply-To of customer e-mails. */
            support_email: string | null;
            /** @description The payment methods a link offers when it names none; null: every method the acquirer takes. */
            default_payment_methods: ("card" | "qrph" | "gcash" | "paymaya" | "grab_pay" | "shopeepay" | "dob" | "brankas" | "billease")[] | null;
            /** @description How many payment links the integrator has. */
            links: number;
            /**
             * @description `suspended`: paylink's operator has suspended the account; what takes new money answers 403 ER.01.40, while reads, refunds and cancellations still work.
             * @enum {string}
             */
            status: "active" | "suspended";
            /**
             * Format: date-time
             * @description Since when the account is suspended; null while active.
             */
            suspended_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        Link: {
            /** @description The link id (lnk_…). */
            id: string;
            /** @description The link’s address: /pay/{slug}. */
            slug: string;
            /** @description The payment page address (absolute when PUBLIC_URL is set). */
            url: string;
            /**
             * @description static: payable at its URL as it is; dynamic: only through the dynamic POST (it has system-filled fields).
             * @enum {string}
             */
            kind: "static" | "dynamic";
            /** @description Whether it takes payments; an inactive link answers 404. */
            active: boolean;
            /** @description Shown as the page heading. */
            title: string;
            /** @description Shown under the title. */
            description: string | null;
            /** @description ISO 4217 code. */
            currency: string;
            /** @description Fixed amount, decimal string; null when the customer enters it. */
            amount: string | null;
            /** @description Least amount a customer may enter. */
            min_amount: string | null;
            /** @description Most a customer may enter. */
            max_amount: string | null;
            /** @description Brand colour, #rrggbb. */
            brand_color: string | null;
            /** @description Where the logo is served from. */
            logo_url: string | null;
            /** @description Custom labels of customer fields. */
            labels: {
                [key: string]: string;
            };
            /** @description Field modes: customer, system or hidden (fields not named use the defaults). */
            fields: {
                [key: string]: "customer" | "system" | "hidden";
            };
            /** @description Where its payments’ events go when the payment names none. */
            callback_url: string | null;
            /** @description When it stops taking payments. */
            expires_at: string | null;
            /** @description How many successful payments it takes. */
            max_payments: number | null;
            /** @description Where the receipt’s “Return to merchant” goes. */
            success_url: string | null;
            /** @description Where the form’s cancel link goes. */
            cancel_url: string | null;
            /** @description The language of the link’s pages and customer e-mails when the customer’s browser asks for none of paylink’s. */
            locale: string | null;
            /** @description The payment methods its page offers, in this order; null: the integrator’s `default_payment_methods`. */
            payment_methods: ("card" | "qrph" | "gcash" | "paymaya" | "grab_pay" | "shopeepay" | "dob" | "brankas" | "billease")[] | null;
            /** @description The merchant’s own questions the page asks (at most 5). */
            questions: ({
                id: string;
                label: {
                    en: string;
                    fil?: string;
                    es?: string;
                };
                help?: {
                    en: string;
                    fil?: string;
                    es?: string;
                };
                /** @default false */
                required: boolean;
                /** @constant */
                type: "text";
                /** @default 200 */
                max_length: number;
            } | {
                id: string;
                label: {
                    en: string;
                    fil?: string;
                    es?: string;
                };
                help?: {
                    en: string;
                    fil?: string;
                    es?: string;
                };
                /** @default false */
                required: boolean;
                /** @constant */
                type: "number";
                min?: number;
                max?: number;
            } | {
                id: string;
                label: {
                    en: string;
                    fil?: string;
                    es?: string;
                };
                help?: {
                    en: string;
                    fil?: string;
                    es?: string;
                };
                /** @default false */
                required: boolean;
                /** @constant */
                type: "dropdown";
                /** @description The choices: each a stable `value` (what an answer stores, whatever the language) and a `label` in English with Filipino and Spanish optional, shown in the page’s language. */
                options: {
                    value: string;
                    label: {
                        en: string;
                        fil?: string;
                        es?: string;
                    };
                }[];
            } | {
                id: string;
                label: {
                    en: string;
                    fil?: string;
                    es?: string;
                };
                help?: {
                    en: string;
                    fil?: string;
                    es?: string;
                };
                /** @default false */
                required: boolean;
                /** @constant */
                type: "checkbox";
                /** Format: uri */
                terms_url?: string;
            } | {
                id: string;
                label: {
                    en: string;
                    fil?: string;
                    es?: string;
                };
                help?: {
                    en: string;
                    fil?: string;
                    es?: string;
                };
                /** @default false */
                required: boolean;
                /** @constant */
                type: "date";
            })[];
            /** @description What the link sells; empty: it takes one amount (`amount`, or what the customer enters). */
            items: components["schemas"]["LinkItem"][];
            /** @description The tip the page offers: preset percentages or amounts (decimal strings), and whether any amount may be typed; null: none. */
            tip: {
                presets: {
                    /** @constant */
                    kind: "percent";
                    values: number[];
                } | {
                    /** @constant */
                    kind: "amount";
                    values: string[];
                };
                custom: boolean;
            } | null;
            /** @description Whether the page takes promotion codes. */
            promotion_codes: boolean;
            /** @description Paying it starts a subscription on this plan (docs/subscriptions.md); null: a one-off payment. */
            subscription: components["schemas"]["Subscription"] | null;
            /** @description When it was created. */
            created_at: string;
            /** @description When it was last changed. */
            updated_at: string;
        };
        LinkItem: {
            id: string;
            name: {
                en: string;
                fil?: string;
                es?: string;
            };
            /** @description The unit price, decimal string in the link’s currency. */
            unit_amount: string;
            quantity: {
                min: number;
                max: number;
                default: number;
            };
            /** @description Where the item’s image is served from; null: it has none. */
            image_url: string | null;
        };
        /**
         * @description Per-field messages (dotted field path → list of messages) on errors; a plain sentence for ER.99.00.
         * @example {
         *       "amount": [
         *         "PHP allows at most 2 decimal places in the amount"
         *       ]
         *     }
         */
        Messages: {
            [key: string]: string[];
        } | string;
        Refund: {
            /** @description The refund id (rfd_…). */
            refund_id: string;
            /**
             * @description FULL or PARTIAL.
             * @enum {string}
             */
            refund_type: "FULL" | "PARTIAL";
            /**
             * @description pending while the acquirer answers; then succeeded or failed.
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed";
            /** @description Refunded amount, decimal string. */
            amount: string;
            /** @description ISO 4217 code. */
            currency: string;
            /** @description Why it was refunded, as given. */
            reason: string;
            /** @description Whether the customer is e-mailed. */
            notify_user: boolean;
            /** @description The acquirer’s id for the refund. */
            acquirer_reference: string | null;
            /** @description Why it failed, when it did. */
            failure_code: string | null;
            /** @description Why it failed, in words. */
            failure_message: string | null;
            /**
             * Format: date-time
             * @description When it was requested (ISO 8601).
             */
            created_at: string;
            /** @description When it succeeded. */
            succeeded_at: string | null;
            /** @description When it failed. */
            failed_at: string | null;
        };
        Sale: {
            /** @description The items bought; empty when the link sells one amount. */
            lines: {
                /** @description The item’s id on the link. */
                id: string;
                /** @description The item’s name as the merchant wrote it: English, with Filipino and Spanish where written. */
                name: {
                    en: string;
                    fil?: string;
                    es?: string;
                };
                /** @description Price of one, decimal string. */
                unit_amount: string;
                /** @description How many were bought. */
                quantity: number;
                /** @description unit_amount × quantity. */
                amount: string;
            }[];
            /** @description What was bought, before the discount and the tip. */
            subtotal: string;
            /** @description The promotion code used; null when none. */
            discount: {
                /** @description The promotion code, as the merchant wrote it. */
                code: string;
                /** @description What the code took off. */
                amount: string;
            } | null;
            /** @description The tip; "0.00" when none. */
            tip: string;
            /** @description Answers to the link’s questions, by question id: text, dropdown values and dates (YYYY-MM-DD) as strings, numbers as numbers, checkboxes as booleans; an unanswered question is absent. */
            answers: {
                [key: string]: string | number | boolean;
            };
        };
        Schedule: {
            reference: string;
            /** @enum {string} */
            status: "active" | "suspended" | "cancelled";
            card_registration_reference: string;
            /** @description The six recurrence fields exactly as given. */
            recurrence: {
                [key: string]: string;
            };
            time_offset: string;
            amount: string;
            currency: string;
            description: string | null;
            merchant_reference_id: string | null;
            other_references: string[];
            notify_user: boolean;
            /** @description The customer of the registered card. */
            customer: components["schemas"]["Customer"] | null;
            /** @description The slug of the subscription link a customer started it from (docs/subscriptions.md); null: signed by the integrator. */
            link: string | null;
            /** @description Charges still to make before a subscription with a number of cycles ends; null: until cancelled. */
            cycles_left: number | null;
            /** @description It runs on one occurrence of its recurrence in every `every` (a subscription every 2 weeks: 2; docs/schedules.md). Always 1 for a schedule the integrator signed. */
            every: number;
            /** @description A subscription started with a free trial: when the trial ends, which is its first charge; null: no trial. */
            trial_ends_at: string | null;
            /** @description A subscription the customer cancelled at the end of its period: when it ends (no charge then). */
            cancel_at: string | null;
            next_run_at: string | null;
            consecutive_failures: number;
            created_at: string | null;
            cancelled_at: string | null;
            suspended_at: string | null;
            runs: {
                id: string;
                due_at: string | null;
                /** @enum {string} */
                status: "pending" | "retrying" | "awaiting_customer" | "succeeded" | "failed" | "cancelled";
                attempts: number;
                next_attempt_at: string | null;
                transaction_id: string | null;
                transaction_status: ("succeeded" | "failed") | null;
                refunded_amount: string | null;
                failure_code: string | null;
                failure_message: string | null;
                completed_at: string | null;
            }[];
        };
        ScheduleListItem: {
            reference: string;
            /** @enum {string} */
            status: "active" | "suspended" | "cancelled";
            card_registration_reference: string;
            /** @description The six recurrence fields exactly as given. */
            recurrence: {
                [key: string]: string;
            };
            time_offset: string;
            amount: string;
            currency: string;
            description: string | null;
            merchant_reference_id: string | null;
            other_references: string[];
            notify_user: boolean;
            /** @description The customer of the registered card. */
            customer: components["schemas"]["Customer"] | null;
            /** @description The slug of the subscription link a customer started it from (docs/subscriptions.md); null: signed by the integrator. */
            link: string | null;
            /** @description Charges still to make before a subscription with a number of cycles ends; null: until cancelled. */
            cycles_left: number | null;
            /** @description It runs on one occurrence of its recurrence in every `every` (a subscription every 2 weeks: 2; docs/schedules.md). Always 1 for a schedule the integrator signed. */
            every: number;
            /** @description A subscription started with a free trial: when the trial ends, which is its first charge; null: no trial. */
            trial_ends_at: string | null;
            /** @description A subscription the customer cancelled at the end of its period: when it ends (no charge then). */
            cancel_at: string | null;
            next_run_at: string | null;
            consecutive_failures: number;
            created_at: string | null;
            cancelled_at: string | null;
            suspended_at: string | null;
        };
        Subscription: {
            /**
             * @description The length of one period.
             * @enum {string}
             */
            interval: "week" | "month" | "year";
            /**
             * @description How many intervals one period lasts: 1–52 weeks, 1–24 months or 1–5 years (every 2 weeks: 2).
             * @default 1
             */
            every: number;
            /** @description A free trial: the first charge comes this many days after the customer subscribes. */
            trial_days?: number;
            /** @description How many payments the subscription takes in all; absent: until cancelled. */
            cycles?: number;
            /**
             * @description How the customer’s cancel works: at once, at the end of the period paid, or the customer chooses.
             * @default period_end
             * @enum {string}
             */
            cancel: "immediately" | "period_end" | "customer_chooses";
        };
        /**
         * @description When the response was made: ISO 8601 date-time with milliseconds and a UTC offset.
         * @example 2026-11-21T09:15:02.123+00:00
         */
        Timestamp: string;
        Transaction: {
            /** @description The transaction id (txn_…), the spec’s transaction_id. */
            transaction_id: string;
            /**
             * @description Whether the charge succeeded.
             * @enum {string}
             */
            status: "succeeded" | "failed";
            /**
             * @description not_refunded, partially_refunded or refunded.
             * @enum {string}
             */
            refund_state: "not_refunded" | "partially_refunded" | "refunded";
            /** @description Charged amount, decimal string. */
            amount: string;
            /** @description ISO 4217 code. */
            currency: string;
            /** @description Sum of succeeded refunds. */
            refunded_amount: string;
            /** @description Held by refunds still waiting for the acquirer. */
            pending_refund_amount: string;
            /** @description What a new refund may still return: amount − refunded − pending. */
            refundable_amount: string;
            /** @description How many refunds were requested. */
            refund_count: number;
            /** @description Payment description. */
            description: string | null;
            /** @description The integrator’s own reference. */
            merchant_reference_id: string | null;
            /** @description Additional references, as given. */
            other_references: string[];
            /** @description Slug of the payment link it was paid through; null for scheduled charges. */
            link: string | null;
            /** @description The schedule it was charged by (sch_…); null for link payments. */
            schedule_reference: string | null;
            /** @description Who paid, as given; null when nothing was given. */
            customer: components["schemas"]["Customer"] | null;
            /**
             * @description How the customer paid: card, qrph, gcash, paymaya, grab_pay, shopeepay, dob, brankas, billease. For `card`, `card` holds the brand and last four; for the others it is null.
             * @enum {string}
             */
            payment_method: "card" | "qrph" | "gcash" | "paymaya" | "grab_pay" | "shopeepay" | "dob" | "brankas" | "billease";
            /** @description The card, for `payment_method: card`; null for every other method. */
            card: {
                /** @description Card brand, e.g. visa. */
                brand: string | null;
                /** @description Last four digits of the card number. */
                last4: string | null;
                /** @description Expiry month (1–12), when known. */
                exp_month: number | null;
                /** @description Expiry year, when known. */
                exp_year: number | null;
            } | null;
            /** @description Why the charge failed, when it did. */
            failure_code: string | null;
            /** @description Why the charge failed, in words. */
            failure_message: string | null;
            /**
             * Format: date-time
             * @description When it was recorded (ISO 8601).
             */
            created_at: string;
            /** @description When it succeeded. */
            paid_at: string | null;
            /** @description When it failed. */
            failed_at: string | null;
            /** @description When it became wholly refunded. */
            refunded_at: string | null;
            /** @description Its refunds, oldest first. */
            refunds: components["schemas"]["Refund"][];
            /** @description What the payment bought (items, promotion code, tip, answers to the link’s questions); null for a payment of one amount with nothing asked. `amount` is the total: subtotal − discount + tip. */
            sale: components["schemas"]["Sale"] | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    createDynamicLink: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any 1–255 characters: the same key with the same request within 24 h replays the first response (`Idempotent-Replayed: true`). */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The payment link’s address, e.g. acme-books. */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    key: string;
                    customer?: {
                        first_name?: string;
                        last_name?: string;
                        billing_address?: {
                            line1?: string;
                            line2?: string;
                            city_municipality?: string;
                            zip?: string;
                            state_province_region?: string;
                            country_code?: string;
                        };
                        contact?: {
                            email?: string;
                            mobile?: string;
                        };
                    };
                    payment?: {
                        description?: string;
                        amount?: number | string;
                        currency?: string;
                        merchant_reference_id?: string;
                    };
                    route?: {
                        callback_url?: string;
                        notify_user?: boolean | ("true" | "false");
                        /** @description Extension: where the receipt’s “Return to merchant” goes (the transaction id is appended); overrides the link’s. */
                        success_url?: string;
                        /** @description Extension: where the form’s cancel link goes; overrides the link’s. */
                        cancel_url?: string;
                    };
                    /** @description Extension: what this checkout sells, in place of the link’s own items or amount: each with an id, a name, a `unit_amount` (decimal in `payment.currency`, such as "150.00") and a quantity range. Not together with `payment.amount`. */
                    items?: {
                        id: string;
                        name: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        /**
                         * @default {
                         *       "min": 1,
                         *       "max": 1,
                         *       "default": 1
                         *     }
                         */
                        quantity?: {
                            /** @default 1 */
                            min?: number;
                            /** @default 1 */
                            max?: number;
                            /** @default 1 */
                            default?: number;
                        };
                        /** @description The unit price, a decimal amount in the link’s currency such as "150.00". */
                        unit_amount: string | number;
                    }[];
                };
            };
        };
        responses: {
            /** @description The checkout page to send the customer to. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: uri
                         * @description The checkout page to send the customer to.
                         */
                        link: string;
                    };
                };
            };
            /** @description `ER.02.31` Malformed JSON body; `ER.02.42` Invalid idempotency key */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 400;
                        /** @constant */
                        message: "Bad Request";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.31" | "ER.02.42";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.01` Authentication failed: invalid link key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.01";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.34` Resource not found; `ER.03.10` Payment link not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.34" | "ER.03.10";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.41` Idempotent request still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 409;
                        /** @constant */
                        message: "Conflict";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.41";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.03.11` Payment link expired; `ER.03.12` Payment link already paid */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 410;
                        /** @constant */
                        message: "Gone";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.03.11" | "ER.03.12";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.33` Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 413;
                        /** @constant */
                        message: "Payload Too Large";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.33";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.32` Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 415;
                        /** @constant */
                        message: "Unsupported Media Type";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.32";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters; `ER.02.40` Idempotency key reused with a different request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.30" | "ER.02.40";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    payCheckout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The checkout token from the dynamic link’s `link`. */
                token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    quantity?: {
                        [key: string]: string | number;
                    };
                    tip?: string;
                    tip_amount?: string;
                    promo_code?: string;
                    answers?: {
                        [key: string]: string | number | boolean;
                    };
                    sale?: string;
                    session?: string;
                    amount?: string;
                    amount_locale?: string;
                    /** @default {} */
                    fields?: {
                        [key: string]: string;
                    };
                    card: {
                        number: string;
                        expiry: string;
                        cvc: string;
                        name: string;
                    };
                };
            };
        };
        responses: {
            /** @description `OK.03.00` Payment successful; `OK.07.04` Free trial started; `ER.03.30` Card payment declined; `ER.07.03` Card declined for a free trial */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            transaction_id: string;
                            /** @description The receipt page. */
                            redirect_url: string;
                            /** @constant */
                            status_code: "OK.03.00";
                            status_description: string;
                        } | {
                            /** @description The subscription’s schedule. */
                            schedule_reference: string;
                            /** @description The first charge: the trial’s end (ISO 8601). */
                            first_charge_at: string | null;
                            /** @description The confirmation page. */
                            redirect_url: string;
                            /** @constant */
                            status_code: "OK.07.04";
                            status_description: string;
                        } | {
                            transaction_id: string;
                            decline_code: string;
                            /** @description Card attempts left on this checkout before it locks. */
                            attempts_left: number;
                            /** @constant */
                            status_code: "ER.03.30";
                            status_description: string;
                        } | {
                            decline_code: string;
                            /** @description Card attempts left on this checkout before it locks. */
                            attempts_left: number;
                            /** @constant */
                            status_code: "ER.07.03";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.31` Malformed JSON body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 400;
                        /** @constant */
                        message: "Bad Request";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.31";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.44` Cross-site request refused */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.44";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.34` Resource not found; `ER.03.20` Checkout session not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.34" | "ER.03.20";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.03.22` Checkout session already paid; `ER.03.24` Payment already in progress; `ER.03.26` Card form not available; `ER.06.01` The promotion code is used up; `ER.06.02` The promotion code was used by this customer */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 409;
                        /** @constant */
                        message: "Conflict";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.03.22" | "ER.03.24" | "ER.03.26" | "ER.06.01" | "ER.06.02";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.03.11` Payment link expired; `ER.03.12` Payment link already paid; `ER.03.21` Checkout session expired */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 410;
                        /** @constant */
                        message: "Gone";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.03.11" | "ER.03.12" | "ER.03.21";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.33` Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 413;
                        /** @constant */
                        message: "Payload Too Large";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.33";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.32` Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 415;
                        /** @constant */
                        message: "Unsupported Media Type";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.32";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters; `ER.06.03` The promotion code does not apply */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.30" | "ER.06.03";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.03.23` Too many payment attempts; `ER.03.25` Too many card attempts; `ER.06.04` Too many promotion codes tried */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.03.23" | "ER.03.25" | "ER.06.04";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    payStaticLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    quantity?: {
                        [key: string]: string | number;
                    };
                    tip?: string;
                    tip_amount?: string;
                    promo_code?: string;
                    answers?: {
                        [key: string]: string | number | boolean;
                    };
                    sale?: string;
                    session?: string;
                    amount?: string;
                    amount_locale?: string;
                    /** @default {} */
                    fields?: {
                        [key: string]: string;
                    };
                    card: {
                        number: string;
                        expiry: string;
                        cvc: string;
                        name: string;
                    };
                };
            };
        };
        responses: {
            /** @description `OK.03.00` Payment successful; `OK.07.04` Free trial started; `ER.03.30` Card payment declined; `ER.07.03` Card declined for a free trial */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            transaction_id: string;
                            /** @description The receipt page. */
                            redirect_url: string;
                            /** @constant */
                            status_code: "OK.03.00";
                            status_description: string;
                        } | {
                            /** @description The subscription’s schedule. */
                            schedule_reference: string;
                            /** @description The first charge: the trial’s end (ISO 8601). */
                            first_charge_at: string | null;
                            /** @description The confirmation page. */
                            redirect_url: string;
                            /** @constant */
                            status_code: "OK.07.04";
                            status_description: string;
                        } | {
                            transaction_id: string;
                            decline_code: string;
                            /** @description Card attempts left on this checkout before it locks. */
                            attempts_left: number;
                            /** @constant */
                            status_code: "ER.03.30";
                            status_description: string;
                        } | {
                            decline_code: string;
                            /** @description Card attempts left on this checkout before it locks. */
                            attempts_left: number;
                            /** @constant */
                            status_code: "ER.07.03";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.31` Malformed JSON body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 400;
                        /** @constant */
                        message: "Bad Request";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.31";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.44` Cross-site request refused */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.44";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.34` Resource not found; `ER.03.10` Payment link not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.34" | "ER.03.10";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.03.22` Checkout session already paid; `ER.03.24` Payment already in progress; `ER.03.26` Card form not available; `ER.06.01` The promotion code is used up; `ER.06.02` The promotion code was used by this customer */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 409;
                        /** @constant */
                        message: "Conflict";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.03.22" | "ER.03.24" | "ER.03.26" | "ER.06.01" | "ER.06.02";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.03.11` Payment link expired; `ER.03.12` Payment link already paid */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 410;
                        /** @constant */
                        message: "Gone";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.03.11" | "ER.03.12";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.33` Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 413;
                        /** @constant */
                        message: "Payload Too Large";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.33";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.32` Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 415;
                        /** @constant */
                        message: "Unsupported Media Type";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.32";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters; `ER.06.03` The promotion code does not apply */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.30" | "ER.06.03";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.03.23` Too many payment attempts; `ER.03.25` Too many card attempts; `ER.06.04` Too many promotion codes tried */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.03.23" | "ER.03.25" | "ER.06.04";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    quoteCheckout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    quantity?: {
                        [key: string]: string | number;
                    };
                    tip?: string;
                    tip_amount?: string;
                    promo_code?: string;
                    answers?: {
                        [key: string]: string | number | boolean;
                    };
                    sale?: string;
                    amount_locale?: string;
                    /** @default {} */
                    fields?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            say: {
                                [key: string]: string;
                            };
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.31` Malformed JSON body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 400;
                        /** @constant */
                        message: "Bad Request";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.31";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.44` Cross-site request refused */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.44";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.34` Resource not found; `ER.03.20` Checkout session not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.34" | "ER.03.20";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.33` Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 413;
                        /** @constant */
                        message: "Payload Too Large";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.33";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.32` Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 415;
                        /** @constant */
                        message: "Unsupported Media Type";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.32";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    quoteStaticLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    quantity?: {
                        [key: string]: string | number;
                    };
                    tip?: string;
                    tip_amount?: string;
                    promo_code?: string;
                    answers?: {
                        [key: string]: string | number | boolean;
                    };
                    sale?: string;
                    amount_locale?: string;
                    /** @default {} */
                    fields?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            say: {
                                [key: string]: string;
                            };
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.31` Malformed JSON body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 400;
                        /** @constant */
                        message: "Bad Request";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.31";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.44` Cross-site request refused */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.44";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.34` Resource not found; `ER.03.20` Checkout session not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.34" | "ER.03.20";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.33` Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 413;
                        /** @constant */
                        message: "Payload Too Large";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.33";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.32` Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 415;
                        /** @constant */
                        message: "Unsupported Media Type";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.32";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    startProviderCheckout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Static links only: the page’s ticket. */
                    session?: string;
                    amount?: string;
                    fields?: {
                        [key: string]: string;
                    };
                    /** @description What the page sells, as its sale form would post it (items, tip, code, answers). */
                    sale?: string;
                };
            };
        };
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @description The PayMongo PaymentIntent (pi_…). */
                            provider_payment_id: string;
                            /** @description The intent’s client key: the browser attaches the card with it. */
                            client_key: string;
                            /** @description The merchant’s PayMongo public key. */
                            public_key: string;
                            /** @description PayMongo’s API origin. */
                            api_base_url: string;
                            /** @description Where PayMongo sends the customer back after 3-D Secure. */
                            return_url: string;
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        } | {
                            /** @description The attempt is already settled: the checkout page. */
                            redirect_url: string;
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        } | {
                            /** @description The attempt waits for 3-D Secure: the provider’s page. */
                            next_action_url: string;
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.31` Malformed JSON body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 400;
                        /** @constant */
                        message: "Bad Request";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.31";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.44` Cross-site request refused */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.44";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.34` Resource not found; `ER.03.20` Checkout session not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.34" | "ER.03.20";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.03.22` Checkout session already paid; `ER.03.24` Payment already in progress; `ER.03.26` Card form not available; `ER.06.01` The promotion code is used up; `ER.06.02` The promotion code was used by this customer */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 409;
                        /** @constant */
                        message: "Conflict";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.03.22" | "ER.03.24" | "ER.03.26" | "ER.06.01" | "ER.06.02";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.03.21` Checkout session expired */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 410;
                        /** @constant */
                        message: "Gone";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.03.21";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.33` Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 413;
                        /** @constant */
                        message: "Payload Too Large";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.33";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.32` Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 415;
                        /** @constant */
                        message: "Unsupported Media Type";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.32";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters; `ER.03.31` Payment refused by the acquirer; `ER.06.03` The promotion code does not apply */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.30" | "ER.03.31" | "ER.06.03";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.03.23` Too many payment attempts; `ER.03.25` Too many card attempts; `ER.06.04` Too many promotion codes tried */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.03.23" | "ER.03.25" | "ER.06.04";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    startProviderStaticLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Static links only: the page’s ticket. */
                    session?: string;
                    amount?: string;
                    fields?: {
                        [key: string]: string;
                    };
                    /** @description What the page sells, as its sale form would post it (items, tip, code, answers). */
                    sale?: string;
                };
            };
        };
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @description The PayMongo PaymentIntent (pi_…). */
                            provider_payment_id: string;
                            /** @description The intent’s client key: the browser attaches the card with it. */
                            client_key: string;
                            /** @description The merchant’s PayMongo public key. */
                            public_key: string;
                            /** @description PayMongo’s API origin. */
                            api_base_url: string;
                            /** @description Where PayMongo sends the customer back after 3-D Secure. */
                            return_url: string;
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        } | {
                            /** @description The attempt is already settled: the checkout page. */
                            redirect_url: string;
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        } | {
                            /** @description The attempt waits for 3-D Secure: the provider’s page. */
                            next_action_url: string;
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.31` Malformed JSON body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 400;
                        /** @constant */
                        message: "Bad Request";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.31";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.44` Cross-site request refused */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.44";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.34` Resource not found; `ER.03.10` Payment link not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.34" | "ER.03.10";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.03.22` Checkout session already paid; `ER.03.24` Payment already in progress; `ER.03.26` Card form not available; `ER.06.01` The promotion code is used up; `ER.06.02` The promotion code was used by this customer */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 409;
                        /** @constant */
                        message: "Conflict";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.03.22" | "ER.03.24" | "ER.03.26" | "ER.06.01" | "ER.06.02";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.03.11` Payment link expired; `ER.03.12` Payment link already paid */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 410;
                        /** @constant */
                        message: "Gone";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.03.11" | "ER.03.12";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.33` Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 413;
                        /** @constant */
                        message: "Payload Too Large";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.33";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.32` Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 415;
                        /** @constant */
                        message: "Unsupported Media Type";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.32";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters; `ER.03.31` Payment refused by the acquirer; `ER.06.03` The promotion code does not apply */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.30" | "ER.03.31" | "ER.06.03";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.03.23` Too many payment attempts; `ER.03.25` Too many card attempts; `ER.06.04` Too many promotion codes tried */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.03.23" | "ER.03.25" | "ER.06.04";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    receiveProviderWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                provider: string;
                /** @description The integrator’s webhook id (wh_…). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /**
                             * @description applied: acted on; duplicate: this event id was handled before; ignored: a type paylink does not act on.
                             * @enum {string}
                             */
                            outcome: "applied" | "duplicate" | "ignored";
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.20` Provider webhook not verified; `ER.01.21` Provider webhook outside the time tolerance */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.20" | "ER.01.21";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.34` Resource not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.34";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.33` Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 413;
                        /** @constant */
                        message: "Payload Too Large";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.33";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    submitRegistrationCard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The token in the card registration’s `link`. */
                token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    fields?: {
                        [key: string]: string;
                    };
                    card: {
                        number: string;
                        expiry: string;
                        cvc: string;
                        name: string;
                    };
                };
            };
        };
        responses: {
            /** @description `OK.11.00` Card registration created; `ER.11.30` Card verification failed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** Format: uuid */
                            reference: string;
                            /** @enum {string} */
                            status: "pending" | "active" | "deleted";
                            redirect_url: string;
                            /** @constant */
                            status_code: "OK.11.00";
                            status_description: string;
                        } | ({
                            /** @constant */
                            status_code: "ER.11.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        });
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.31` Malformed JSON body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 400;
                        /** @constant */
                        message: "Bad Request";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.31";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.44` Cross-site request refused */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.44";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters; `ER.02.34` Resource not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.30" | "ER.02.34";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.03.26` Card form not available */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 409;
                        /** @constant */
                        message: "Conflict";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.03.26";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.03.21` Checkout session expired */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 410;
                        /** @constant */
                        message: "Gone";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.03.21";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.33` Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 413;
                        /** @constant */
                        message: "Payload Too Large";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.33";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.32` Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 415;
                        /** @constant */
                        message: "Unsupported Media Type";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.32";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.03.23` Too many payment attempts */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.03.23";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    refundPayment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any 1–255 characters: the same key with the same request within 24 h replays the first response (`Idempotent-Replayed: true`). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    transaction_id: string;
                    notify_user: boolean | ("true" | "false");
                    reason: string;
                    amount?: string | number;
                };
            };
        };
        responses: {
            /** @description `OK.02.00` Full refund successful; `OK.02.01` Full refund accepted, pending at the acquirer; `OK.04.00` Partial refund successful; `OK.04.01` Partial refund accepted, pending at the acquirer; `ER.20.20` Unable to process client request because the transaction is already refunded; `ER.20.21` Refund amount exceeds the refundable amount; `ER.20.22` Transaction cannot be refunded; `ER.20.23` Refund type not available for this card brand; `ER.20.24` Refund limit reached; `ER.20.25` Refund window closed; `ER.20.26` Refund declined by the acquirer; `ER.20.27` Refund not possible with the integrator's acquirer; `ER.20.28` Payment method cannot be refunded */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            transaction_id: string;
                            refund_id: string;
                            /** @enum {string} */
                            refund_type: "FULL" | "PARTIAL";
                            /** @enum {string} */
                            refund_status: "pending" | "succeeded" | "failed";
                            /** @description What this refund returns. */
                            amount: string;
                            /** @description Sum of the payment’s succeeded refunds. */
                            refunded_amount: string;
                            /** @description What a later refund may still return. */
                            refundable_amount: string;
                            currency: string;
                            /**
                             * @description How the refunded payment was paid (card, qrph, gcash, …): the refund goes back the same way.
                             * @enum {string}
                             */
                            payment_method: "card" | "qrph" | "gcash" | "paymaya" | "grab_pay" | "shopeepay" | "dob" | "brankas" | "billease";
                            /** @enum {string} */
                            status_code: "OK.02.00" | "OK.02.01" | "OK.04.00" | "OK.04.01";
                            status_description: string;
                        } | ({
                            /** @enum {string} */
                            status_code: "ER.20.20" | "ER.20.21" | "ER.20.22" | "ER.20.23" | "ER.20.24" | "ER.20.25" | "ER.20.27" | "ER.20.28";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        }) | {
                            refund_id: string;
                            /** @enum {string} */
                            refund_type: "FULL" | "PARTIAL";
                            /** @enum {string} */
                            refund_status: "pending" | "succeeded" | "failed";
                            /** @description What this refund returns. */
                            amount: string;
                            /** @description Sum of the payment’s succeeded refunds. */
                            refunded_amount: string;
                            /** @description What a later refund may still return. */
                            refundable_amount: string;
                            currency: string;
                            /**
                             * @description How the refunded payment was paid (card, qrph, gcash, …): the refund goes back the same way.
                             * @enum {string}
                             */
                            payment_method: "card" | "qrph" | "gcash" | "paymaya" | "grab_pay" | "shopeepay" | "dob" | "brankas" | "billease";
                            failure_code: string | null;
                            failure_message: string | null;
                            /** @constant */
                            status_code: "ER.20.26";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.31` Malformed JSON body; `ER.02.42` Invalid idempotency key */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 400;
                        /** @constant */
                        message: "Bad Request";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.31" | "ER.02.42";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.41` Idempotent request still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 409;
                        /** @constant */
                        message: "Conflict";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.41";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.33` Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 413;
                        /** @constant */
                        message: "Payload Too Large";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.33";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.32` Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 415;
                        /** @constant */
                        message: "Unsupported Media Type";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.32";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters; `ER.02.40` Idempotency key reused with a different request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.30" | "ER.02.40";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    getTransaction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description txn_… */
                transaction_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            transaction: components["schemas"]["Transaction"];
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters; `ER.02.34` Resource not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.30" | "ER.02.34";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    listCardRegistrations: {
        parameters: {
            query?: {
                /** @description How many items to return. */
                limit?: number;
                /** @description An object id from a previous page (its next_cursor): the page of objects older than it. */
                starting_after?: string;
                /** @description An object id from a previous page (its previous_cursor): the page of objects newer than it. */
                ending_before?: string;
                /** @description Only objects created at or after this instant (ISO 8601). */
                created_gte?: string;
                /** @description Only objects created before this instant (ISO 8601). */
                created_lt?: string;
                /** @description Only registrations in this state. */
                status?: "pending" | "active" | "deleted";
                /** @description Only objects whose customer e-mail is exactly this (case-insensitive). */
                customer_email?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @description The objects, newest first. */
                            items: components["schemas"]["CardRegistration"][];
                            /** @description Whether more objects exist in the direction being paged (older for starting_after or no cursor; newer for ending_before). */
                            has_more: boolean;
                            /** @description Pass as starting_after for the next (older) page; null when there is none. */
                            next_cursor: string | null;
                            /** @description Pass as ending_before for the previous (newer) page; null when there is none. */
                            previous_cursor: string | null;
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    createCardRegistration: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any 1–255 characters: the same key with the same request within 24 h replays the first response (`Idempotent-Replayed: true`). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    customer?: {
                        name?: string;
                        /** Format: email */
                        email?: string;
                    };
                    callback_url?: string;
                    return_url?: string;
                };
            };
        };
        responses: {
            /** @description `OK.11.00` Card registration created */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** Format: uuid */
                            reference: string;
                            /**
                             * Format: uri
                             * @description The hosted page where the customer enters the card.
                             */
                            link: string;
                            /** Format: date-time */
                            expires_at: string;
                            /** @constant */
                            status_code: "OK.11.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.31` Malformed JSON body; `ER.02.42` Invalid idempotency key */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 400;
                        /** @constant */
                        message: "Bad Request";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.31" | "ER.02.42";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.41` Idempotent request still in progress; `ER.11.31` Card registration not available with the integrator's acquirer */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 409;
                        /** @constant */
                        message: "Conflict";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.41" | "ER.11.31";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.33` Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 413;
                        /** @constant */
                        message: "Payload Too Large";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.33";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.32` Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 415;
                        /** @constant */
                        message: "Unsupported Media Type";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.32";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters; `ER.02.40` Idempotency key reused with a different request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.30" | "ER.02.40";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    getCardRegistration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The registration’s UUID. */
                reference: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            card_registration: components["schemas"]["CardRegistration"];
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters; `ER.02.34` Resource not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.30" | "ER.02.34";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    deleteCardRegistration: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    reference: string;
                };
            };
        };
        responses: {
            /** @description `OK.11.20` Card registration deletion successful; `OK.11.21` Card registration already deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            reference: string;
                            cancelled_schedules?: string[];
                            /** Format: date-time */
                            timestamp: string;
                            /** @enum {string} */
                            status_code: "OK.11.20" | "OK.11.21";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.31` Malformed JSON body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 400;
                        /** @constant */
                        message: "Bad Request";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.31";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.33` Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 413;
                        /** @constant */
                        message: "Payload Too Large";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.33";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.32` Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 415;
                        /** @constant */
                        message: "Unsupported Media Type";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.32";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    createSchedule: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any 1–255 characters: the same key with the same request within 24 h replays the first response (`Idempotent-Replayed: true`). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    payload: string;
                };
            };
        };
        responses: {
            /** @description `OK.12.00` Payment scheduling successful; `ER.12.30` Card registration is not active */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @description The schedule reference (sch_…). */
                            reference: string;
                            /** @constant */
                            status_code: "OK.12.00";
                            status_description: string;
                        } | ({
                            /** @constant */
                            status_code: "ER.12.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        });
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.31` Malformed JSON body; `ER.02.42` Invalid idempotency key */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 400;
                        /** @constant */
                        message: "Bad Request";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.31" | "ER.02.42";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.41` Idempotent request still in progress; `ER.12.31` Schedule for this signed payload was cancelled; `ER.12.35` Scheduled charges not available with the integrator's acquirer */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 409;
                        /** @constant */
                        message: "Conflict";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.41" | "ER.12.31" | "ER.12.35";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.33` Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 413;
                        /** @constant */
                        message: "Payload Too Large";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.33";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.32` Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 415;
                        /** @constant */
                        message: "Unsupported Media Type";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.32";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.10` Invalid signed payload; `ER.02.30` Invalid client request due to invalid parameters; `ER.02.40` Idempotency key reused with a different request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.10" | "ER.02.30" | "ER.02.40";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    cancelSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    reference: string;
                };
            };
        };
        responses: {
            /** @description `OK.11.20` Card registration deletion successful; `OK.11.21` Card registration already deleted; `OK.12.20` Schedule cancellation successful; `OK.12.21` Schedule already cancelled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            reference: string;
                            cancelled_schedules?: string[];
                            /** Format: date-time */
                            timestamp: string;
                            /** @enum {string} */
                            status_code: "OK.11.20" | "OK.11.21";
                            status_description: string;
                        } | {
                            reference: string;
                            /** Format: date-time */
                            timestamp: string;
                            /** @enum {string} */
                            status_code: "OK.12.20" | "OK.12.21";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.31` Malformed JSON body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 400;
                        /** @constant */
                        message: "Bad Request";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.31";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.33` Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 413;
                        /** @constant */
                        message: "Payload Too Large";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.33";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.32` Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 415;
                        /** @constant */
                        message: "Unsupported Media Type";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.32";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    getSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description sch_… */
                reference: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            schedule: components["schemas"]["Schedule"];
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters; `ER.02.34` Resource not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.30" | "ER.02.34";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description How many items to return. */
                limit?: number;
                /** @description An object id from a previous page (its next_cursor): the page of objects older than it. */
                starting_after?: string;
                /** @description An object id from a previous page (its previous_cursor): the page of objects newer than it. */
                ending_before?: string;
                /** @description Only objects created at or after this instant (ISO 8601). */
                created_gte?: string;
                /** @description Only objects created before this instant (ISO 8601). */
                created_lt?: string;
                /** @description Only events of this type. */
                type?: "payment.succeeded" | "payment.failed" | "refund.succeeded" | "refund.failed" | "card_registration.completed" | "card_registration.deleted" | "schedule.created" | "schedule.cancelled" | "schedule.resumed" | "schedule.charge_succeeded" | "schedule.charge_failed" | "schedule.suspended" | "schedule.payment_link_sent" | "schedule.payment_link_expired" | "webhook.test" | "subscription.page_link";
                /** @description Legacy: an event id or timestamp; events after it, oldest first. */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @description The objects, newest first. */
                            items: components["schemas"]["Event"][];
                            /** @description Whether more objects exist in the direction being paged (older for starting_after or no cursor; newer for ending_before). */
                            has_more: boolean;
                            /** @description Pass as starting_after for the next (older) page; null when there is none. */
                            next_cursor: string | null;
                            /** @description Pass as ending_before for the previous (newer) page; null when there is none. */
                            previous_cursor: string | null;
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        } | {
                            events: components["schemas"]["Event"][];
                            has_more: boolean;
                            next_after: string | null;
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @description The new signing secret (whsec_…); shown only in this response. */
                            webhook_secret: string;
                            /**
                             * Format: date-time
                             * @description Until then callbacks carry signatures by both secrets.
                             */
                            previous_secret_valid_until: string;
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    getIntegrator: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            integrator: components["schemas"]["Integrator"];
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    updateIntegrator: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Where events go when a payment, schedule or card registration names no callback_url (a public http(s) URL); null clears it. */
                    default_callback_url?: string | null;
                    /** @description Where customers write with questions: shown on payment pages and the Reply-To of customer e-mails; null clears it (replies then go to the account e-mail). */
                    support_email?: string | null;
                    /** @description The payment methods a link offers when it names none of its own, in the order of preference; each must be one the acquirer takes. null: every method the acquirer takes. */
                    default_payment_methods?: ("card" | "qrph" | "gcash" | "paymaya" | "grab_pay" | "shopeepay" | "dob" | "brankas" | "billease")[] | null;
                };
            };
        };
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            integrator: components["schemas"]["Integrator"];
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.31` Malformed JSON body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 400;
                        /** @constant */
                        message: "Bad Request";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.31";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.33` Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 413;
                        /** @constant */
                        message: "Payload Too Large";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.33";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.32` Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 415;
                        /** @constant */
                        message: "Unsupported Media Type";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.32";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    listTransactions: {
        parameters: {
            query?: {
                /** @description How many items to return. */
                limit?: number;
                /** @description An object id from a previous page (its next_cursor): the page of objects older than it. */
                starting_after?: string;
                /** @description An object id from a previous page (its previous_cursor): the page of objects newer than it. */
                ending_before?: string;
                /** @description Only objects created at or after this instant (ISO 8601). */
                created_gte?: string;
                /** @description Only objects created before this instant (ISO 8601). */
                created_lt?: string;
                /** @description Only transactions in this state. */
                status?: "succeeded" | "failed";
                /** @description Only transactions with this refund_state (a failed transaction is not_refunded). */
                refund_state?: "not_refunded" | "partially_refunded" | "refunded";
                /** @description Only transactions paid through the link with this slug. */
                link?: string;
                /** @description Only transactions with exactly this merchant_reference_id. */
                merchant_reference_id?: string;
                /** @description Only objects whose customer e-mail is exactly this (case-insensitive). */
                customer_email?: string;
                /** @description Only those paid by this method. */
                payment_method?: "card" | "qrph" | "gcash" | "paymaya" | "grab_pay" | "shopeepay" | "dob" | "brankas" | "billease";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @description The objects, newest first. */
                            items: components["schemas"]["Transaction"][];
                            /** @description Whether more objects exist in the direction being paged (older for starting_after or no cursor; newer for ending_before). */
                            has_more: boolean;
                            /** @description Pass as starting_after for the next (older) page; null when there is none. */
                            next_cursor: string | null;
                            /** @description Pass as ending_before for the previous (newer) page; null when there is none. */
                            previous_cursor: string | null;
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    listRefunds: {
        parameters: {
            query?: {
                /** @description How many items to return. */
                limit?: number;
                /** @description An object id from a previous page (its next_cursor): the page of objects older than it. */
                starting_after?: string;
                /** @description An object id from a previous page (its previous_cursor): the page of objects newer than it. */
                ending_before?: string;
                /** @description Only objects created at or after this instant (ISO 8601). */
                created_gte?: string;
                /** @description Only objects created before this instant (ISO 8601). */
                created_lt?: string;
                /** @description Only refunds in this state. */
                status?: "pending" | "succeeded" | "failed";
                /** @description Only refunds of this transaction. */
                transaction_id?: string;
                /** @description Only refunds of transactions paid by this method. */
                payment_method?: "card" | "qrph" | "gcash" | "paymaya" | "grab_pay" | "shopeepay" | "dob" | "brankas" | "billease";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @description The objects, newest first. */
                            items: {
                                /** @description The refund id (rfd_…). */
                                refund_id: string;
                                /**
                                 * @description FULL or PARTIAL.
                                 * @enum {string}
                                 */
                                refund_type: "FULL" | "PARTIAL";
                                /**
                                 * @description pending while the acquirer answers; then succeeded or failed.
                                 * @enum {string}
                                 */
                                status: "pending" | "succeeded" | "failed";
                                /** @description Refunded amount, decimal string. */
                                amount: string;
                                /** @description ISO 4217 code. */
                                currency: string;
                                /** @description Why it was refunded, as given. */
                                reason: string;
                                /** @description Whether the customer is e-mailed. */
                                notify_user: boolean;
                                /** @description The acquirer’s id for the refund. */
                                acquirer_reference: string | null;
                                /** @description Why it failed, when it did. */
                                failure_code: string | null;
                                /** @description Why it failed, in words. */
                                failure_message: string | null;
                                /**
                                 * Format: date-time
                                 * @description When it was requested (ISO 8601).
                                 */
                                created_at: string;
                                /** @description When it succeeded. */
                                succeeded_at: string | null;
                                /** @description When it failed. */
                                failed_at: string | null;
                                /** @description The refunded transaction. */
                                transaction_id: string;
                                /** @description The transaction’s merchant_reference_id. */
                                merchant_reference_id: string | null;
                                /** @description The transaction’s other_references. */
                                other_references: string[];
                                /** @description The transaction’s description. */
                                description: string | null;
                                /** @description Slug of the link the transaction was paid through. */
                                link: string | null;
                                customer: components["schemas"]["Customer"] | null;
                                /**
                                 * @description How the refunded transaction was paid; the refund goes back the same way.
                                 * @enum {string}
                                 */
                                payment_method: "card" | "qrph" | "gcash" | "paymaya" | "grab_pay" | "shopeepay" | "dob" | "brankas" | "billease";
                            }[];
                            /** @description Whether more objects exist in the direction being paged (older for starting_after or no cursor; newer for ending_before). */
                            has_more: boolean;
                            /** @description Pass as starting_after for the next (older) page; null when there is none. */
                            next_cursor: string | null;
                            /** @description Pass as ending_before for the previous (newer) page; null when there is none. */
                            previous_cursor: string | null;
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    listSchedules: {
        parameters: {
            query?: {
                /** @description How many items to return. */
                limit?: number;
                /** @description An object id from a previous page (its next_cursor): the page of objects older than it. */
                starting_after?: string;
                /** @description An object id from a previous page (its previous_cursor): the page of objects newer than it. */
                ending_before?: string;
                /** @description Only objects created at or after this instant (ISO 8601). */
                created_gte?: string;
                /** @description Only objects created before this instant (ISO 8601). */
                created_lt?: string;
                /** @description Only schedules in this state. */
                status?: "active" | "suspended" | "cancelled";
                /** @description Only schedules with exactly this merchant_reference_id. */
                merchant_reference_id?: string;
                /** @description Only schedules charging this registered card. */
                card_registration_reference?: string;
                /** @description Only objects whose customer e-mail is exactly this (case-insensitive). */
                customer_email?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @description The objects, newest first. */
                            items: components["schemas"]["ScheduleListItem"][];
                            /** @description Whether more objects exist in the direction being paged (older for starting_after or no cursor; newer for ending_before). */
                            has_more: boolean;
                            /** @description Pass as starting_after for the next (older) page; null when there is none. */
                            next_cursor: string | null;
                            /** @description Pass as ending_before for the previous (newer) page; null when there is none. */
                            previous_cursor: string | null;
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    listLinks: {
        parameters: {
            query?: {
                /** @description How many items to return. */
                limit?: number;
                /** @description An object id from a previous page (its next_cursor): the page of objects older than it. */
                starting_after?: string;
                /** @description An object id from a previous page (its previous_cursor): the page of objects newer than it. */
                ending_before?: string;
                /** @description Only objects created at or after this instant (ISO 8601). */
                created_gte?: string;
                /** @description Only objects created before this instant (ISO 8601). */
                created_lt?: string;
                /** @description Only active (true) or inactive (false) links. */
                active?: "true" | "false";
                /** @description Only links in this currency. */
                currency?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @description The objects, newest first. */
                            items: components["schemas"]["Link"][];
                            /** @description Whether more objects exist in the direction being paged (older for starting_after or no cursor; newer for ending_before). */
                            has_more: boolean;
                            /** @description Pass as starting_after for the next (older) page; null when there is none. */
                            next_cursor: string | null;
                            /** @description Pass as ending_before for the previous (newer) page; null when there is none. */
                            previous_cursor: string | null;
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    createLink: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any 1–255 characters: the same key with the same request within 24 h replays the first response (`Idempotent-Replayed: true`). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The link’s address /pay/{slug}; absent: generated. */
                    slug?: string;
                    /** @description Page heading. */
                    title: string;
                    /** @description Shown under the title. */
                    description?: string | null;
                    /** @description ISO 4217 code. */
                    currency: string;
                    /** @description Fixed amount; null or absent: the customer enters it. */
                    amount?: (string | number) | null;
                    /** @description Least a customer may enter (only without amount). */
                    min_amount?: (string | number) | null;
                    /** @description Most a customer may enter (only without amount). */
                    max_amount?: (string | number) | null;
                    /** @description Brand colour, #rrggbb. */
                    brand_color?: string | null;
                    /** @description A PNG, JPEG, WebP or SVG image as a data: URL, at most 512 KiB (the type is read from the bytes); SVG is sanitized. null removes it. */
                    logo?: string | null;
                    /** @description Field path → label shown to the customer. */
                    labels?: {
                        [key: string]: string;
                    };
                    /** @description Field path → customer, system or hidden. */
                    fields?: {
                        [key: string]: "customer" | "system" | "hidden";
                    };
                    /** @description Where events of payments made on the link go when the payment names none. */
                    callback_url?: string | null;
                    /** @description false: /pay/{slug} answers 404 and takes no payments. */
                    active?: boolean;
                    /** @description When it stops taking payments. */
                    expires_at?: string | null;
                    /** @description How many successful payments it takes. */
                    max_payments?: number | null;
                    /** @description Where the receipt’s “Return to merchant” goes. */
                    success_url?: string | null;
                    /** @description Where the form’s cancel link goes. */
                    cancel_url?: string | null;
                    /** @description The language (en, fil, es) of the link’s pages and customer e-mails when the customer’s browser asks for none of these; the page’s switcher overrides both. */
                    locale?: ("en" | "fil" | "es") | null;
                    /** @description The payment methods its page offers, in the order of preference (card, qrph, gcash, paymaya, grab_pay, shopeepay, dob, brankas, billease); each must be one the merchant’s acquirer takes. null: the integrator’s `default_payment_methods`. An empty list is refused (ER.03.13). */
                    payment_methods?: ("card" | "qrph" | "gcash" | "paymaya" | "grab_pay" | "shopeepay" | "dob" | "brankas" | "billease")[] | null;
                    /** @description Up to 5 questions of the merchant’s own (text, number, dropdown, checkbox, date), each with a label and optional help in en, fil and es; [] asks none. */
                    questions?: ({
                        id: string;
                        label: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        help?: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        /** @default false */
                        required?: boolean;
                        /** @constant */
                        type: "text";
                        /** @default 200 */
                        max_length?: number;
                    } | {
                        id: string;
                        label: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        help?: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        /** @default false */
                        required?: boolean;
                        /** @constant */
                        type: "number";
                        min?: number;
                        max?: number;
                    } | {
                        id: string;
                        label: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        help?: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        /** @default false */
                        required?: boolean;
                        /** @constant */
                        type: "dropdown";
                        /** @description The choices: each a stable `value` (what an answer stores, whatever the language) and a `label` in English with Filipino and Spanish optional, shown in the page’s language. */
                        options: {
                            value: string;
                            label: {
                                en: string;
                                fil?: string;
                                es?: string;
                            };
                        }[];
                    } | {
                        id: string;
                        label: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        help?: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        /** @default false */
                        required?: boolean;
                        /** @constant */
                        type: "checkbox";
                        /** Format: uri */
                        terms_url?: string;
                    } | {
                        id: string;
                        label: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        help?: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        /** @default false */
                        required?: boolean;
                        /** @constant */
                        type: "date";
                    })[];
                    /** @description What the link sells: up to 20 items, each with a name, a `unit_amount` (decimal in the link’s currency, such as "150.00"), a quantity range and an optional `image` (a data: URL, as `logo`); the total is computed on the server. A link with items has no `amount`, `min_amount` or `max_amount`; [] sells one amount. */
                    items?: {
                        id: string;
                        name: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        /**
                         * @default {
                         *       "min": 1,
                         *       "max": 1,
                         *       "default": 1
                         *     }
                         */
                        quantity?: {
                            /** @default 1 */
                            min?: number;
                            /** @default 1 */
                            max?: number;
                            /** @default 1 */
                            default?: number;
                        };
                        /** @description The unit price, a decimal amount in the link’s currency such as "150.00". */
                        unit_amount: string | number;
                        /** @description The item’s image. A PNG, JPEG, WebP or SVG image as a data: URL, at most 512 KiB (the type is read from the bytes); SVG is sanitized. null removes it; absent keeps the image the link’s item of the same id has. */
                        image?: string | null;
                    }[];
                    /** @description A tip: preset percentages (of what is bought after any discount) or preset amounts (decimals), and whether any amount may be typed (`custom`); null: none. */
                    tip?: {
                        presets: {
                            /** @constant */
                            kind: "percent";
                            values: number[];
                        } | {
                            /** @constant */
                            kind: "amount";
                            values: (string | number)[];
                        };
                        /** @default true */
                        custom?: boolean;
                    } | null;
                    /** @description Whether the page has a field for a promotion code. */
                    promotion_codes?: boolean;
                    /** @description Makes it a subscription link (a fixed `amount` per period; docs/subscriptions.md). null: a one-off payment link. */
                    subscription?: components["schemas"]["Subscription"] | null;
                };
            };
        };
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            link: components["schemas"]["Link"];
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.31` Malformed JSON body; `ER.02.42` Invalid idempotency key */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 400;
                        /** @constant */
                        message: "Bad Request";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.31" | "ER.02.42";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.41` Idempotent request still in progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 409;
                        /** @constant */
                        message: "Conflict";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.41";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.33` Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 413;
                        /** @constant */
                        message: "Payload Too Large";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.33";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.32` Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 415;
                        /** @constant */
                        message: "Unsupported Media Type";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.32";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters; `ER.02.40` Idempotency key reused with a different request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.30" | "ER.02.40";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    getLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The link’s slug, e.g. acme-books. */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            link: components["schemas"]["Link"];
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters; `ER.02.34` Resource not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.30" | "ER.02.34";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    updateLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The link’s slug. */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Page heading. */
                    title?: string;
                    /** @description Shown under the title. */
                    description?: string | null;
                    /** @description ISO 4217 code. */
                    currency?: string;
                    /** @description Fixed amount; null or absent: the customer enters it. */
                    amount?: (string | number) | null;
                    /** @description Least a customer may enter (only without amount). */
                    min_amount?: (string | number) | null;
                    /** @description Most a customer may enter (only without amount). */
                    max_amount?: (string | number) | null;
                    /** @description Brand colour, #rrggbb. */
                    brand_color?: string | null;
                    /** @description A PNG, JPEG, WebP or SVG image as a data: URL, at most 512 KiB (the type is read from the bytes); SVG is sanitized. null removes it. */
                    logo?: string | null;
                    /** @description Field path → label shown to the customer. */
                    labels?: {
                        [key: string]: string;
                    };
                    /** @description Field path → customer, system or hidden. */
                    fields?: {
                        [key: string]: "customer" | "system" | "hidden";
                    };
                    /** @description Where events of payments made on the link go when the payment names none. */
                    callback_url?: string | null;
                    /** @description false: /pay/{slug} answers 404 and takes no payments. */
                    active?: boolean;
                    /** @description When it stops taking payments. */
                    expires_at?: string | null;
                    /** @description How many successful payments it takes. */
                    max_payments?: number | null;
                    /** @description Where the receipt’s “Return to merchant” goes. */
                    success_url?: string | null;
                    /** @description Where the form’s cancel link goes. */
                    cancel_url?: string | null;
                    /** @description The language (en, fil, es) of the link’s pages and customer e-mails when the customer’s browser asks for none of these; the page’s switcher overrides both. */
                    locale?: ("en" | "fil" | "es") | null;
                    /** @description The payment methods its page offers, in the order of preference (card, qrph, gcash, paymaya, grab_pay, shopeepay, dob, brankas, billease); each must be one the merchant’s acquirer takes. null: the integrator’s `default_payment_methods`. An empty list is refused (ER.03.13). */
                    payment_methods?: ("card" | "qrph" | "gcash" | "paymaya" | "grab_pay" | "shopeepay" | "dob" | "brankas" | "billease")[] | null;
                    /** @description Up to 5 questions of the merchant’s own (text, number, dropdown, checkbox, date), each with a label and optional help in en, fil and es; [] asks none. */
                    questions?: ({
                        id: string;
                        label: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        help?: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        /** @default false */
                        required?: boolean;
                        /** @constant */
                        type: "text";
                        /** @default 200 */
                        max_length?: number;
                    } | {
                        id: string;
                        label: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        help?: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        /** @default false */
                        required?: boolean;
                        /** @constant */
                        type: "number";
                        min?: number;
                        max?: number;
                    } | {
                        id: string;
                        label: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        help?: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        /** @default false */
                        required?: boolean;
                        /** @constant */
                        type: "dropdown";
                        /** @description The choices: each a stable `value` (what an answer stores, whatever the language) and a `label` in English with Filipino and Spanish optional, shown in the page’s language. */
                        options: {
                            value: string;
                            label: {
                                en: string;
                                fil?: string;
                                es?: string;
                            };
                        }[];
                    } | {
                        id: string;
                        label: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        help?: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        /** @default false */
                        required?: boolean;
                        /** @constant */
                        type: "checkbox";
                        /** Format: uri */
                        terms_url?: string;
                    } | {
                        id: string;
                        label: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        help?: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        /** @default false */
                        required?: boolean;
                        /** @constant */
                        type: "date";
                    })[];
                    /** @description What the link sells: up to 20 items, each with a name, a `unit_amount` (decimal in the link’s currency, such as "150.00"), a quantity range and an optional `image` (a data: URL, as `logo`); the total is computed on the server. A link with items has no `amount`, `min_amount` or `max_amount`; [] sells one amount. */
                    items?: {
                        id: string;
                        name: {
                            en: string;
                            fil?: string;
                            es?: string;
                        };
                        /**
                         * @default {
                         *       "min": 1,
                         *       "max": 1,
                         *       "default": 1
                         *     }
                         */
                        quantity?: {
                            /** @default 1 */
                            min?: number;
                            /** @default 1 */
                            max?: number;
                            /** @default 1 */
                            default?: number;
                        };
                        /** @description The unit price, a decimal amount in the link’s currency such as "150.00". */
                        unit_amount: string | number;
                        /** @description The item’s image. A PNG, JPEG, WebP or SVG image as a data: URL, at most 512 KiB (the type is read from the bytes); SVG is sanitized. null removes it; absent keeps the image the link’s item of the same id has. */
                        image?: string | null;
                    }[];
                    /** @description A tip: preset percentages (of what is bought after any discount) or preset amounts (decimals), and whether any amount may be typed (`custom`); null: none. */
                    tip?: {
                        presets: {
                            /** @constant */
                            kind: "percent";
                            values: number[];
                        } | {
                            /** @constant */
                            kind: "amount";
                            values: (string | number)[];
                        };
                        /** @default true */
                        custom?: boolean;
                    } | null;
                    /** @description Whether the page has a field for a promotion code. */
                    promotion_codes?: boolean;
                    /** @description Makes it a subscription link (a fixed `amount` per period; docs/subscriptions.md). null: a one-off payment link. */
                    subscription?: components["schemas"]["Subscription"] | null;
                };
            };
        };
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            link: components["schemas"]["Link"];
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.31` Malformed JSON body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 400;
                        /** @constant */
                        message: "Bad Request";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.31";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters; `ER.02.34` Resource not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.30" | "ER.02.34";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.33` Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 413;
                        /** @constant */
                        message: "Payload Too Large";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.33";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.32` Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 415;
                        /** @constant */
                        message: "Unsupported Media Type";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.32";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    listPromotions: {
        parameters: {
            query?: {
                /** @description How many items to return. */
                limit?: number;
                /** @description An object id from a previous page (its next_cursor): the page of objects older than it. */
                starting_after?: string;
                /** @description An object id from a previous page (its previous_cursor): the page of objects newer than it. */
                ending_before?: string;
                /** @description Only objects created at or after this instant (ISO 8601). */
                created_gte?: string;
                /** @description Only objects created before this instant (ISO 8601). */
                created_lt?: string;
                /** @description Only active (true) or inactive (false) codes. */
                active?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @description The objects, newest first. */
                            items: {
                                /** @description The promotion id (promo_…). */
                                id: string;
                                /** @description The code, in upper case. */
                                code: string;
                                discount: {
                                    /** @constant */
                                    kind: "percent";
                                    percent: number;
                                } | {
                                    /** @constant */
                                    kind: "fixed";
                                    /** @description Decimal string. */
                                    amount: string;
                                    currency: string;
                                };
                                /** @description The links it applies to; null: every link. */
                                link_ids: string[] | null;
                                valid_from: string | null;
                                valid_until: string | null;
                                max_redemptions: number | null;
                                /** @description Redemptions held now (a payment that ended unpaid gives its place back). */
                                redeemed: number;
                                once_per_email: boolean;
                                active: boolean;
                                created_at: string;
                                updated_at: string;
                            }[];
                            /** @description Whether more objects exist in the direction being paged (older for starting_after or no cursor; newer for ending_before). */
                            has_more: boolean;
                            /** @description Pass as starting_after for the next (older) page; null when there is none. */
                            next_cursor: string | null;
                            /** @description Pass as ending_before for the previous (newer) page; null when there is none. */
                            previous_cursor: string | null;
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    createPromotion: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any 1–255 characters: the same key with the same request within 24 h replays the first response (`Idempotent-Replayed: true`). */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 3–32 letters, digits, - or _; stored in upper case and compared without case. */
                    code: string;
                    discount: {
                        /** @constant */
                        kind: "percent";
                        /** @description Percent off, 1–100. */
                        percent: number;
                    } | {
                        /** @constant */
                        kind: "fixed";
                        /** @description Amount off, a decimal in `currency`, e.g. "50.00" (a JSON number is accepted). */
                        amount: string | number;
                        /** @description ISO 4217 code; the code applies only to links in this currency. */
                        currency: string;
                    };
                    /** @description The links (ids, lnk_…) it applies to; absent or null: every link. */
                    link_ids?: string[] | null;
                    /** @description From when it applies (inclusive). */
                    valid_from?: string | null;
                    /** @description Until when it applies (exclusive). */
                    valid_until?: string | null;
                    /** @description Most payments that may use it; absent or null: no limit. */
                    max_redemptions?: number | null;
                    /**
                     * @description Each customer e-mail address may use it once.
                     * @default false
                     */
                    once_per_email?: boolean;
                };
            };
        };
        responses: {
            /** @description `OK.06.00` Promotion code created */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            promotion: {
                                /** @description The promotion id (promo_…). */
                                id: string;
                                /** @description The code, in upper case. */
                                code: string;
                                discount: {
                                    /** @constant */
                                    kind: "percent";
                                    percent: number;
                                } | {
                                    /** @constant */
                                    kind: "fixed";
                                    /** @description Decimal string. */
                                    amount: string;
                                    currency: string;
                                };
                                /** @description The links it applies to; null: every link. */
                                link_ids: string[] | null;
                                valid_from: string | null;
                                valid_until: string | null;
                                max_redemptions: number | null;
                                /** @description Redemptions held now (a payment that ended unpaid gives its place back). */
                                redeemed: number;
                                once_per_email: boolean;
                                active: boolean;
                                created_at: string;
                                updated_at: string;
                            };
                            /** @constant */
                            status_code: "OK.06.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.31` Malformed JSON body; `ER.02.42` Invalid idempotency key */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 400;
                        /** @constant */
                        message: "Bad Request";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.31" | "ER.02.42";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.41` Idempotent request still in progress; `ER.06.00` A promotion code with this code exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 409;
                        /** @constant */
                        message: "Conflict";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.41" | "ER.06.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.33` Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 413;
                        /** @constant */
                        message: "Payload Too Large";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.33";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.32` Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 415;
                        /** @constant */
                        message: "Unsupported Media Type";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.32";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters; `ER.02.40` Idempotency key reused with a different request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.30" | "ER.02.40";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    getPromotion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promotion id (promo_…). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            promotion: {
                                /** @description The promotion id (promo_…). */
                                id: string;
                                /** @description The code, in upper case. */
                                code: string;
                                discount: {
                                    /** @constant */
                                    kind: "percent";
                                    percent: number;
                                } | {
                                    /** @constant */
                                    kind: "fixed";
                                    /** @description Decimal string. */
                                    amount: string;
                                    currency: string;
                                };
                                /** @description The links it applies to; null: every link. */
                                link_ids: string[] | null;
                                valid_from: string | null;
                                valid_until: string | null;
                                max_redemptions: number | null;
                                /** @description Redemptions held now (a payment that ended unpaid gives its place back). */
                                redeemed: number;
                                once_per_email: boolean;
                                active: boolean;
                                created_at: string;
                                updated_at: string;
                            };
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters; `ER.02.34` Resource not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.30" | "ER.02.34";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    updatePromotion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The promotion id (promo_…). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The links it applies to; null: every link. */
                    link_ids?: string[] | null;
                    valid_from?: string | null;
                    valid_until?: string | null;
                    /** @description Never below `redeemed` (409 ER.06.20); null: no limit. */
                    max_redemptions?: number | null;
                    /** @description false deactivates it (customers typing it are refused), true reactivates it. */
                    active?: boolean;
                };
            };
        };
        responses: {
            /** @description `OK.06.01` Promotion code changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            promotion: {
                                /** @description The promotion id (promo_…). */
                                id: string;
                                /** @description The code, in upper case. */
                                code: string;
                                discount: {
                                    /** @constant */
                                    kind: "percent";
                                    percent: number;
                                } | {
                                    /** @constant */
                                    kind: "fixed";
                                    /** @description Decimal string. */
                                    amount: string;
                                    currency: string;
                                };
                                /** @description The links it applies to; null: every link. */
                                link_ids: string[] | null;
                                valid_from: string | null;
                                valid_until: string | null;
                                max_redemptions: number | null;
                                /** @description Redemptions held now (a payment that ended unpaid gives its place back). */
                                redeemed: number;
                                once_per_email: boolean;
                                active: boolean;
                                created_at: string;
                                updated_at: string;
                            };
                            /** @constant */
                            status_code: "OK.06.01";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.31` Malformed JSON body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 400;
                        /** @constant */
                        message: "Bad Request";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.31";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters; `ER.02.34` Resource not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.30" | "ER.02.34";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.06.20` The maximum is below the redemptions made */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 409;
                        /** @constant */
                        message: "Conflict";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.06.20";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.33` Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 413;
                        /** @constant */
                        message: "Payload Too Large";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.33";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.32` Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 415;
                        /** @constant */
                        message: "Unsupported Media Type";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.32";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    resendEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The event id (evt_…). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `OK.13.00` Event queued for redelivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @description The event (and webhook-id) being delivered again. */
                            event_id: string;
                            /** @description Where it goes. */
                            callback_url: string;
                            /**
                             * @description Queued: the callback worker delivers it at once.
                             * @constant
                             */
                            callback_state: "pending";
                            /** @description Delivery attempts made before this one. */
                            attempts: number;
                            /** @constant */
                            status_code: "OK.13.00";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters; `ER.02.34` Resource not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.30" | "ER.02.34";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.13.30` Event has no callback URL */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 409;
                        /** @constant */
                        message: "Conflict";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.13.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    sendTestEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `OK.13.01` Test event queued */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @description The webhook.test event (and its webhook-id). */
                            event_id: string;
                            /** @description Where it goes: the account’s default callback URL. */
                            callback_url: string;
                            /**
                             * @description Queued: the callback worker delivers it at once, signed like every event.
                             * @constant
                             */
                            callback_state: "pending";
                            /** @constant */
                            status_code: "OK.13.01";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.13.30` Event has no callback URL */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 409;
                        /** @constant */
                        message: "Conflict";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.13.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 422;
                        /** @constant */
                        message: "Unprocessable Entity";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.02.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    runScheduleNow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The schedule reference (sch_…). */
                reference: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `OK.12.10` Scheduled charge run now */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @description The schedule. */
                            reference: string;
                            /** @description The occurrence charged now. */
                            run_id: string;
                            /** @description The occurrence’s due time (in the schedule’s time_offset). */
                            due_at: string;
                            /**
                             * @description How the charge ended, as the scheduler records it.
                             * @enum {string}
                             */
                            outcome: "succeeded" | "retrying" | "failed" | "suspended" | "already_recorded";
                            /** @description The transaction recorded for it. */
                            transaction_id: string | null;
                            /** @description The following occurrence. */
                            next_run_at: string | null;
                            /** @constant */
                            status_code: "OK.12.10";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters; `ER.02.34` Resource not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.30" | "ER.02.34";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.12.32` Only the sandbox acquirer can run a schedule now; `ER.12.33` Schedule is not active */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 409;
                        /** @constant */
                        message: "Conflict";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.12.32" | "ER.12.33";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    resumeSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The schedule reference (sch_…). */
                reference: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `OK.12.11` Schedule resumed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @description The schedule. */
                            reference: string;
                            /**
                             * @description Active again.
                             * @constant
                             */
                            status: "active";
                            /** @description Its next occurrence: the first after the resumption (in the schedule’s time_offset); missed ones are not charged. */
                            next_run_at: string;
                            /** @description When it was resumed (ISO 8601 UTC). */
                            timestamp: string;
                            /** @constant */
                            status_code: "OK.12.11";
                            status_description: string;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.00` Authentication failed: missing or unknown Authorization token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 401;
                        /** @constant */
                        message: "Unauthorized";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.30` This key can only create payment links */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 403;
                        /** @constant */
                        message: "Forbidden";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.01.30";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.02.30` Invalid client request due to invalid parameters; `ER.02.34` Resource not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 404;
                        /** @constant */
                        message: "Not Found";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.02.30" | "ER.02.34";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.12.34` Schedule is not suspended */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 409;
                        /** @constant */
                        message: "Conflict";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.12.34";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.01.02` Too many failed authentication attempts; `ER.02.43` Too many requests */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 429;
                        /** @constant */
                        message: "Too Many Requests";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @enum {string} */
                            status_code: "ER.01.02" | "ER.02.43";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    ping: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `OK.00.00` Request successful */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 200;
                        /** @constant */
                        message: "OK";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "OK.00.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document. */
            200: {
                headers: {
                    /** @description public, max-age=300 */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        openapi: string;
                        info: {
                            [key: string]: unknown;
                        };
                        paths: {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description `ER.99.00` Internal server error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        timestamp: components["schemas"]["Timestamp"];
                        /** @constant */
                        status: 500;
                        /** @constant */
                        message: "Internal Server Error";
                        /** @description The path that was called. */
                        path: string;
                        data: {
                            /** @constant */
                            status_code: "ER.99.00";
                            status_description: string;
                        } & {
                            [key: string]: unknown;
                        };
                        messages?: components["schemas"]["Messages"];
                    };
                };
            };
        };
    };
}
