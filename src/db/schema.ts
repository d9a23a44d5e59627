import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { Discount, Item, PaymentSale, Question, TipConfig } from '../schemas/link-sale.ts';
import type { PaymentMethod } from '../schemas/payment-method.ts';
import type { SubscriptionConfig } from '../schemas/subscription.ts';

/**
 * The whole schema. Money is bigint minor units next to an ISO 4217 code; every lifecycle
 * change has its own timestamptz column. Card numbers never appear here: only the sandbox
 * vault (sandbox_vault) holds them, encrypted.
 */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => Buffer.from(v),
});
const money = (name: string) => bigint(name, { mode: 'bigint' });
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();

export type RefundCapability = 'full_partial' | 'full' | 'none';
export type FieldMode = 'customer' | 'system' | 'hidden';

export const integrators = pgTable('integrators', {
  id: text('id').primaryKey(),
  /** Stable key from provisioning, so re-applying a seed updates instead of duplicating. */
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  tokenHash: text('token_hash').notNull().unique(),
  /** The API token a console rotation replaced, accepted until previous_token_valid_until. */
  previousTokenHash: text('previous_token_hash').unique(),
  previousTokenValidUntil: ts('previous_token_valid_until'),
  /** Fingerprint of the seed's token last applied: a re-applied seed does not undo a console rotation. */
  tokenSeedSha256: text('token_seed_sha256'),
  /**
   * The publishable link key (`pk_link_…`): creates dynamic checkouts on the integrator's links and
   * nothing else. Looked up by its hash like the token; also kept sealed, because it is
   * publishable and the console shows it again. Null until issued (src/domain/integrators/link-keys.ts).
   */
  linkKeyHash: text('link_key_hash').unique(),
  linkKeyEnc: text('link_key_enc'),
  /** The link key a console rotation replaced, accepted until previous_link_key_valid_until. */
  previousLinkKeyHash: text('previous_link_key_hash').unique(),
  previousLinkKeyValidUntil: ts('previous_link_key_valid_until'),
  /** Fingerprint of the seed's link key last applied (as token_seed_sha256). */
  linkKeySeedSha256: text('link_key_seed_sha256'),
  /** JWT secret, AES-256-GCM under the master key. */
  secretEnc: text('secret_enc').notNull(),
  /** The JWT secret a console rotation replaced (sealed), verifying until previous_secret_valid_until. */
  previousSecretEnc: text('previous_secret_enc'),
  previousSecretValidUntil: ts('previous_secret_valid_until'),
  /** Fingerprint of the seed's JWT secret last applied (as token_seed_sha256). */
  secretSeedSha256: text('secret_seed_sha256'),
  webhookSecretEnc: text('webhook_secret_enc').notNull(),
  previousWebhookSecretEnc: text('previous_webhook_secret_enc'),
  webhookSecretRotatedAt: ts('webhook_secret_rotated_at'),
  /**
   * sha256 of the webhook_secret the seed last set: a seed re-applied at start rotates only when
   * its secret changed, so a rotation through the API is not undone by a restart.
   */
  webhookSecretSeedSha256: text('webhook_secret_seed_sha256'),
  /** Card brand → refund capability; brands not listed use `default`. */
  refundCapabilities: jsonb('refund_capabilities').$type<Record<string, RefundCapability>>().notNull().default({}),
  /** Shown to customers on payment pages and e-mails (Reply-To); null: the account e-mail is not shown. */
  supportEmail: text('support_email'),
  /** Where events go when a payment names no callback_url (and its link has none). */
  defaultCallbackUrl: text('default_callback_url'),
  /** The methods a link offers when it names none, in the merchant's order; null: every method the acquirer takes. */
  defaultPaymentMethods: jsonb('default_payment_methods').$type<PaymentMethod[]>(),
  /**
   * Per profile field the seed names (name, support_email, default_callback_url,
   * refund_capabilities), a fingerprint of the value the seed last applied: a re-applied seed sets
   * a field only when its own value changed, so a change made through the API or console survives.
   */
  seedFields: jsonb('seed_fields').$type<Record<string, string>>().notNull().default({}),
  /**
   * Set while the operator has suspended the integrator (src/domain/integrators/suspension.ts): its
   * API and link keys are refused, its pages take no payment and its schedules are not charged.
   */
  suspendedAt: ts('suspended_at'),
  /** Why, as the operator wrote it; null when not suspended. */
  suspendedReason: text('suspended_reason'),
  /**
   * The dynamic-link field modes support agreed with the integrator (spec §2.4: "only in
   * coordination with support"): set by the operator console, the modes a new link of the
   * integrator starts with for the fields it does not name itself.
   */
  linkFieldModes: jsonb('link_field_modes').$type<Record<string, FieldMode>>().notNull().default({}),
  createdAt: createdAt(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
export type Integrator = typeof integrators.$inferSelect;

/**
 * The acquirer an integrator takes payments through (src/acquirer/registry.ts). No row: the
 * sandbox. Keys and the provider's webhook secret are sealed like the other integrator secrets
 * (AES-256-GCM under the master key); the public key is public by nature (the browser uses it).
 */
export const integratorAcquirers = pgTable('integrator_acquirers', {
  integratorId: text('integrator_id')
    .primaryKey()
    .references(() => integrators.id),
  provider: text('provider').$type<'sandbox' | 'paymongo' | 'stripe'>().notNull(),
  publicKey: text('public_key'),
  secretKeyEnc: text('secret_key_enc'),
  webhookSecretEnc: text('webhook_secret_enc'),
  /** The provider's API origin; tests point it at an in-repo fake. */
  apiBaseUrl: text('api_base_url'),
  /** The customer pays on the provider's own page (PayMongo checkout_sessions) instead of the card form on paylink's page. */
  hostedCheckout: boolean('hosted_checkout').notNull().default(false),
  /** How long a QR Ph code lives from its start, in seconds (PayMongo's `expiry_seconds`, 60–9000); null: PayMongo's 30 minutes. */
  qrExpirySeconds: integer('qr_expiry_seconds'),
  /** Names the integrator in the provider webhook address (/webhooks/{provider}/{webhook_id}); not a secret. */
  webhookId: text('webhook_id').notNull().unique(),
  /** sha256 of the seed's acquirer block last applied: a re-applied seed does not undo a console change. */
  seedSha256: text('seed_sha256'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
export type IntegratorAcquirer = typeof integratorAcquirers.$inferSelect;

/** Provider webhook events already handled, by the provider's event id: a duplicate changes nothing. */
export const providerWebhookEvents = pgTable(
  'provider_webhook_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    integratorId: text('integrator_id')
      .notNull()
      .references(() => integrators.id),
    type: text('type').notNull(),
    receivedAt: ts('received_at').notNull(),
  },
  // Per integrator: the same event sent to two integrators' endpoints is applied for each.
  (t) => [primaryKey({ columns: [t.provider, t.integratorId, t.eventId] })],
);

export const assets = pgTable('assets', {
  id: text('id').primaryKey(),
  integratorId: text('integrator_id')
    .notNull()
    .references(() => integrators.id),
  contentType: text('content_type').notNull(),
  sha256: text('sha256').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: createdAt(),
});
export type Asset = typeof assets.$inferSelect;

export const links = pgTable(
  'links',
  {
    id: text('id').primaryKey(),
    integratorId: text('integrator_id')
      .notNull()
      .references(() => integrators.id),
    slug: text('slug').notNull().unique(),
    title: text('title').notNull(),
    description: text('description'),
    currency: text('currency').notNull(),
    /** Fixed amount; null means the customer enters it (within min/max when set). */
    amountMinor: money('amount_minor'),
    minAmountMinor: money('min_amount_minor'),
    maxAmountMinor: money('max_amount_minor'),
    brandColor: text('brand_color'),
    logoAssetId: text('logo_asset_id').references(() => assets.id),
    labels: jsonb('labels').$type<Record<string, string>>().notNull().default({}),
    fields: jsonb('fields').$type<Record<string, FieldMode>>().notNull().default({}),
    /** The methods the page offers, in the merchant's order; null: the integrator's defaults. */
    paymentMethods: jsonb('payment_methods').$type<PaymentMethod[]>(),
    /** The merchant's own questions (at most 5), asked on the page after the customer's fields. */
    questions: jsonb('questions').$type<Question[]>().notNull().default([]),
    /** What the link sells; empty: one amount (amountMinor, or the customer's within min/max). */
    items: jsonb('items').$type<Item[]>().notNull().default([]),
    /** The tip the page offers; null: none. */
    tip: jsonb('tip').$type<TipConfig>(),
    /** Whether the page takes promotion codes (the merchant's codes that apply to this link). */
    promotionCodes: boolean('promotion_codes').notNull().default(false),
    /** Paying it starts a subscription on this plan (docs/subscriptions.md); null: a one-off payment. */
    subscription: jsonb('subscription').$type<SubscriptionConfig>(),
    callbackUrl: text('callback_url'),
    active: boolean('active').notNull().default(true),
    /**
     * paylink's own link, not the merchant's (the "Scheduled payment" link pay-by-link schedules
     * open their occurrences' checkouts on: src/domain/schedules/pay-links.ts). Never listed, shown,
     * edited or deactivated through the API or the console, and never paid at /pay/{slug}: only its
     * personal checkout links take payments.
     */
    system: boolean('system').notNull().default(false),
    /** After this instant the link can no longer be paid (410); null: no expiry. */
    expiresAt: ts('expires_at'),
    /** How many successful payments the link accepts (1: single use); null: no limit. */
    maxPayments: integer('max_payments'),
    /** Where the receipt's "Return to merchant" and the form's cancel link go (http/https only). */
    successUrl: text('success_url'),
    cancelUrl: text('cancel_url'),
    /** The payment page's language (BCP 47: en, fil, es); the customer's Accept-Language may override it. */
    locale: text('locale'),
    /**
     * sha256 of the seed entry that last set this link: a seed re-applied at start changes the
     * link only when its entry changed since, so edits made through the API survive restarts.
     */
    seedSha256: text('seed_sha256'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('links_integrator_created_idx').on(t.integratorId, t.createdAt, t.id)],
);
export type Link = typeof links.$inferSelect;

export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: text('id').primaryKey(),
    /** sha256 of the URL token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    linkId: text('link_id')
      .notNull()
      .references(() => links.id),
    integratorId: text('integrator_id')
      .notNull()
      .references(() => integrators.id),
    kind: text('kind').$type<'static' | 'dynamic'>().notNull(),
    status: text('status').$type<'open' | 'paid' | 'locked'>().notNull().default('open'),
    amountMinor: money('amount_minor'),
    currency: text('currency').notNull(),
    description: text('description'),
    merchantReferenceId: text('merchant_reference_id'),
    /** Values the integrator sent (system-filled), keyed by dotted field path. */
    systemValues: jsonb('system_values').$type<Record<string, string>>().notNull().default({}),
    /** Items a dynamic link's integrator sent (the documented extension); null: the link's own. */
    items: jsonb('items').$type<Item[]>(),
    callbackUrl: text('callback_url'),
    /** A dynamic link's own return addresses (http/https); null: the link's. */
    successUrl: text('success_url'),
    cancelUrl: text('cancel_url'),
    notifyUser: boolean('notify_user').notNull().default(false),
    /** The language the customer's browser asked for or they chose on the page, as they paid; null: none of ours. The e-mails about the payment use it. */
    locale: text('locale'),
    attempts: integer('attempts').notNull().default(0),
    /** Set while a card attempt is at the acquirer: a second submit meanwhile gets a 409, never a second charge. */
    processingAt: ts('processing_at'),
    /** The provider's payment (PayMongo payment intent) of the attempt in flight, for sync and webhooks. */
    providerPaymentId: text('provider_payment_id'),
    /**
     * What that attempt was for (attempt number, amount, the customer's values, the method and bank
     * chosen), to record it when the provider answers later; a QR Ph attempt keeps its code and expiry
     * (ISO 8601) so the page can show it again.
     */
    providerAttempt: jsonb('provider_attempt').$type<{
      attempt: number;
      amountMinor: string;
      customerValues: Record<string, string>;
      checkoutUrl?: string;
      method?: PaymentMethod;
      bank?: string;
      qr?: { content: string; expiresAt: string };
      /** A redirect method's authorisation page, where a second start of the same attempt sends the customer again. */
      redirectUrl?: string;
      /** What the attempt buys (items, tip, code, answers), stored on the payment when it is recorded. */
      sale?: PaymentSale | null;
      /** A free trial's card setup at the acquirer (Stripe: the SetupIntent), in place of a payment (src/domain/subscriptions/trial-setup.ts). */
      setupId?: string;
    }>(),
    paymentId: text('payment_id'),
    /** A schedule's occurrence this session collects (a payment link e-mailed each cycle): paying it settles that run. */
    scheduleRunId: text('schedule_run_id').unique(),
    expiresAt: ts('expires_at').notNull(),
    paidAt: ts('paid_at'),
    lockedAt: ts('locked_at'),
    /**
     * A subscription link's payment recorded, its subscription not started yet: set with the payment,
     * cleared once it started (or could not: no e-mail). A crash in between leaves it set, and the
     * provider-reconcile loop starts it (src/domain/subscriptions/recovery.ts); also that loop's lease.
     */
    subscriptionPendingAt: ts('subscription_pending_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('checkout_sessions_link_idx').on(t.linkId),
    index('checkout_sessions_provider_payment_idx').on(t.providerPaymentId),
    index('checkout_sessions_subscription_pending_idx').on(t.subscriptionPendingAt).where(sql`${t.subscriptionPendingAt} is not null`),
  ],
);
export type CheckoutSession = typeof checkoutSessions.$inferSelect;

export const cardRegistrations = pgTable(
  'card_registrations',
  {
    reference: uuid('reference').primaryKey(),
    integratorId: text('integrator_id')
      .notNull()
      .references(() => integrators.id),
    status: text('status').$type<'pending' | 'active' | 'deleted'>().notNull().default('pending'),
    /** sha256 of the hosted page token. */
    pageTokenHash: text('page_token_hash').unique(),
    customerName: text('customer_name'),
    customerEmail: text('customer_email'),
    callbackUrl: text('callback_url'),
    returnUrl: text('return_url'),
    /** Acquirer token for the vaulted card; brand/last4/expiry for display. */
    cardToken: text('card_token'),
    /** The acquirer's customer the card is saved on (Stripe: cus_…); null for the sandbox vault. */
    cardCustomer: text('card_customer'),
    /** The acquirer's card setup the customer confirms in the browser (Stripe: the seti_… SetupIntent); null for the sandbox vault. */
    cardSetupId: text('card_setup_id'),
    brand: text('brand'),
    last4: text('last4'),
    expMonth: integer('exp_month'),
    expYear: integer('exp_year'),
    fingerprint: text('fingerprint'),
    holderName: text('holder_name'),
    /** The customer's language when they gave the card on the hosted page (src/i18n): their e-mails about the schedules charging it speak it. */
    locale: text('locale'),
    /**
     * How its schedules collect each occurrence: `saved_card` (charged off-session with the card
     * token) or `pay_link` (a checkout link e-mailed to the customer each cycle, for acquirers that
     * cannot charge a saved card off-session: docs/acquirers.md "Schedules").
     */
    collection: text('collection').$type<'saved_card' | 'pay_link'>().notNull().default('saved_card'),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: ts('expires_at'),
    createdAt: createdAt(),
    activatedAt: ts('activated_at'),
    deletedAt: ts('deleted_at'),
    /**
     * A deleted registration's card still to be removed at the acquirer (Stripe: its payment method
     * detached): when to try next; null once done or when there is nothing to remove
     * (src/domain/cards/forget.ts).
     */
    forgetNextAt: ts('forget_next_at'),
    forgetAttempts: integer('forget_attempts').notNull().default(0),
  },
  (t) => [
    index('card_registrations_integrator_idx').on(t.integratorId, t.createdAt, t.reference),
    index('card_registrations_integrator_status_idx').on(t.integratorId, t.status, t.createdAt, t.reference),
    index('card_registrations_integrator_email_idx').on(t.integratorId, sql`lower(${t.customerEmail})`, t.createdAt, t.reference),
    uniqueIndex('card_registrations_setup_idx').on(t.integratorId, t.cardSetupId),
    index('card_registrations_forget_idx').on(t.forgetNextAt).where(sql`${t.forgetNextAt} is not null`),
  ],
);
export type CardRegistration = typeof cardRegistrations.$inferSelect;

export const payments = pgTable(
  'payments',
  {
    /** The spec's transaction_id. */
    id: text('id').primaryKey(),
    integratorId: text('integrator_id')
      .notNull()
      .references(() => integrators.id),
    linkId: text('link_id').references(() => links.id),
    checkoutSessionId: text('checkout_session_id').references(() => checkoutSessions.id),
    scheduleRunId: text('schedule_run_id'),
    cardRegistrationReference: uuid('card_registration_reference'),
    status: text('status').$type<'succeeded' | 'failed'>().notNull(),
    amountMinor: money('amount_minor').notNull(),
    currency: text('currency').notNull(),
    refundedMinor: money('refunded_minor').notNull().default(sql`0`),
    refundCount: integer('refund_count').notNull().default(0),
    /** Amount held by refunds still waiting for the acquirer; released if they fail. */
    refundReservedMinor: money('refund_reserved_minor').notNull().default(sql`0`),
    /**
     * Bumped by every change to the refund columns: a refund reserves and settles with one
     * compare-and-set statement on it, and takes the row lock only when another got there first.
     */
    refundVersion: integer('refund_version').notNull().default(0),
    description: text('description'),
    merchantReferenceId: text('merchant_reference_id'),
    otherReferences: jsonb('other_references').$type<string[]>().notNull().default([]),
    customer: jsonb('customer').$type<Record<string, string>>().notNull().default({}),
    customerEmail: text('customer_email'),
    /** What the payment bought (items, tip, promotion code, answers to the link's questions); null: one amount, nothing asked. */
    sale: jsonb('sale').$type<PaymentSale>(),
    callbackUrl: text('callback_url'),
    notifyUser: boolean('notify_user').notNull().default(false),
    /** How the customer paid (src/schemas/payment-method.ts); card brand and last four beside it for cards. */
    paymentMethod: text('payment_method').$type<PaymentMethod>().notNull().default('card'),
    /** Online banking (`dob`, `brankas`): the bank the customer paid through, by bank code; its refund rules can differ (PayMongo: UnionBank). */
    paymentBank: text('payment_bank'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    cardFingerprint: text('card_fingerprint'),
    acquirerReference: text('acquirer_reference'),
    failureCode: text('failure_code'),
    failureMessage: text('failure_message'),
    idempotencyKey: text('idempotency_key').unique(),
    createdAt: createdAt(),
    paidAt: ts('paid_at'),
    failedAt: ts('failed_at'),
    refundedAt: ts('refunded_at'),
  },
  // The list's indexes (GET /api/v1/transactions): one per filter, each ending in the list's
  // order (created_at, id) so a page is an index range scan, never a sort.
  (t) => [
    index('payments_integrator_created_idx').on(t.integratorId, t.createdAt, t.id),
    index('payments_integrator_status_idx').on(t.integratorId, t.status, t.createdAt, t.id),
    index('payments_link_created_idx').on(t.linkId, t.createdAt, t.id),
    index('payments_integrator_reference_idx').on(t.integratorId, t.merchantReferenceId, t.createdAt, t.id),
    index('payments_integrator_email_idx').on(t.integratorId, sql`lower(${t.customerEmail})`, t.createdAt, t.id),
    index('payments_session_idx').on(t.checkoutSessionId),
    index('payments_integrator_method_idx').on(t.integratorId, t.paymentMethod, t.createdAt, t.id),
  ],
);
export type Payment = typeof payments.$inferSelect;

export const refunds = pgTable(
  'refunds',
  {
    id: text('id').primaryKey(),
    paymentId: text('payment_id')
      .notNull()
      .references(() => payments.id),
    integratorId: text('integrator_id')
      .notNull()
      .references(() => integrators.id),
    type: text('type').$type<'full' | 'partial'>().notNull(),
    status: text('status').$type<'pending' | 'succeeded' | 'failed'>().notNull(),
    amountMinor: money('amount_minor').notNull(),
    currency: text('currency').notNull(),
    reason: text('reason').notNull(),
    notifyUser: boolean('notify_user').notNull().default(false),
    acquirerReference: text('acquirer_reference'),
    failureCode: text('failure_code'),
    failureMessage: text('failure_message'),
    /** The client's Idempotency-Key: a retry after a crash resumes this refund instead of starting another. */
    idempotencyKey: text('idempotency_key'),
    /** The console user who asked for it (null: the API). Staff refund caps sum a staff member's refunds by it. */
    requestedByUserId: text('requested_by_user_id'),
    createdAt: createdAt(),
    succeededAt: ts('succeeded_at'),
    failedAt: ts('failed_at'),
  },
  (t) => [
    index('refunds_payment_idx').on(t.paymentId, t.createdAt, t.id),
    index('refunds_pending_idx').on(t.createdAt).where(sql`status = 'pending'`),
    index('refunds_integrator_created_idx').on(t.integratorId, t.createdAt, t.id),
    index('refunds_integrator_status_idx').on(t.integratorId, t.status, t.createdAt, t.id),
    index('refunds_requested_by_idx').on(t.requestedByUserId, t.currency, t.createdAt).where(sql`requested_by_user_id is not null`),
  ],
);
export type Refund = typeof refunds.$inferSelect;

/**
 * What an owner lets each staff member refund, per currency (integer minor units): at most
 * `per_refund_minor` in one refund and `per_day_minor` in any 24 hours; null is no cap. Owners
 * and the API are not capped.
 */
export const staffRefundCaps = pgTable(
  'staff_refund_caps',
  {
    integratorId: text('integrator_id')
      .notNull()
      .references(() => integrators.id),
    currency: text('currency').notNull(),
    perRefundMinor: money('per_refund_minor'),
    perDayMinor: money('per_day_minor'),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.integratorId, t.currency] })],
);
export type StaffRefundCap = typeof staffRefundCaps.$inferSelect;

/** A merchant's promotion code (src/domain/promotions; docs/payment-links.md). `redeemed` counts redemptions held now. */
export const promotions = pgTable(
  'promotions',
  {
    id: text('id').primaryKey(),
    integratorId: text('integrator_id')
      .notNull()
      .references(() => integrators.id),
    /** Upper case, as customers' typing is compared (normalizeCode). */
    code: text('code').notNull(),
    discount: jsonb('discount').$type<Discount>().notNull(),
    /** The links it applies to; null: all the merchant's links. */
    linkIds: jsonb('link_ids').$type<string[]>(),
    validFrom: ts('valid_from'),
    validUntil: ts('valid_until'),
    maxRedemptions: integer('max_redemptions'),
    redeemed: integer('redeemed').notNull().default(0),
    oncePerEmail: boolean('once_per_email').notNull().default(false),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('promotions_code_idx').on(t.integratorId, t.code)],
);
export type PromotionRow = typeof promotions.$inferSelect;

/** One use of a promotion code by one payment attempt; released when that attempt ends unpaid. */
export const promotionRedemptions = pgTable(
  'promotion_redemptions',
  {
    id: text('id').primaryKey(),
    promotionId: text('promotion_id')
      .notNull()
      .references(() => promotions.id),
    /** What redeemed it (a checkout session or payment id): one redemption each. */
    reference: text('reference').notNull(),
    /** The customer's e-mail, lower case, for once-per-customer codes. */
    email: text('email'),
    discountMinor: money('discount_minor').notNull(),
    currency: text('currency').notNull(),
    createdAt: createdAt(),
    releasedAt: ts('released_at'),
  },
  (t) => [
    uniqueIndex('promotion_redemptions_reference_idx').on(t.promotionId, t.reference),
    // A once-per-customer code: one held redemption per e-mail.
    uniqueIndex('promotion_redemptions_email_idx').on(t.promotionId, t.email).where(sql`email is not null and released_at is null`),
  ],
);

export const schedules = pgTable(
  'schedules',
  {
    /** The schedule reference returned to the integrator. */
    id: text('id').primaryKey(),
    integratorId: text('integrator_id')
      .notNull()
      .references(() => integrators.id),
    cardRegistrationReference: uuid('card_registration_reference')
      .notNull()
      .references(() => cardRegistrations.reference),
    status: text('status').$type<'active' | 'suspended' | 'cancelled'>().notNull().default('active'),
    /** The recurrence fields exactly as given (second … month). */
    recurrence: jsonb('recurrence').$type<Record<string, string>>().notNull(),
    cronPattern: text('cron_pattern').notNull(),
    timeOffset: text('time_offset').notNull(),
    amountMinor: money('amount_minor').notNull(),
    currency: text('currency').notNull(),
    description: text('description'),
    merchantReferenceId: text('merchant_reference_id'),
    otherReferences: jsonb('other_references').$type<string[]>().notNull().default([]),
    callbackUrl: text('callback_url'),
    notifyUser: boolean('notify_user').notNull().default(false),
    customerIpAddress: text('customer_ip_address'),
    /** sha256 of the JWT that created it: the same JWT again replays the first reply. */
    payloadHash: text('payload_hash').notNull(),
    nextRunAt: ts('next_run_at'),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    createdAt: createdAt(),
    cancelledAt: ts('cancelled_at'),
    suspendedAt: ts('suspended_at'),
    /** The subscription link whose payment started it (docs/subscriptions.md); null: signed by the integrator. */
    linkId: text('link_id').references(() => links.id),
    /** Charges still to make before it ends (completed); null: until cancelled. */
    cyclesLeft: integer('cycles_left'),
    /** A cancel the customer asked for at the end of the period paid: it is cancelled instead of charged then. */
    cancelAt: ts('cancel_at'),
    /** A subscription started with a free trial: when it ends (the first charge); null: started by a payment, or signed. */
    trialEndsAt: ts('trial_ends_at'),
    /** It runs on one occurrence of its recurrence in every `every`, counted from `anchor_at` (docs/schedules.md). */
    every: integer('every').notNull().default(1),
    /** The occurrence its count starts from; null when `every` is 1. */
    anchorAt: ts('anchor_at'),
  },
  (t) => [
    uniqueIndex('schedules_payload_idx').on(t.integratorId, t.payloadHash),
    index('schedules_due_idx').on(t.nextRunAt).where(sql`status = 'active'`),
    index('schedules_integrator_created_idx').on(t.integratorId, t.createdAt, t.id),
    index('schedules_integrator_status_idx').on(t.integratorId, t.status, t.createdAt, t.id),
    index('schedules_integrator_reference_idx').on(t.integratorId, t.merchantReferenceId, t.createdAt, t.id),
    index('schedules_card_created_idx').on(t.cardRegistrationReference, t.createdAt, t.id),
  ],
);
export type Schedule = typeof schedules.$inferSelect;

export const scheduleRuns = pgTable(
  'schedule_runs',
  {
    id: text('id').primaryKey(),
    scheduleId: text('schedule_id')
      .notNull()
      .references(() => schedules.id),
    dueAt: ts('due_at').notNull(),
    /** `awaiting_customer`: its payment link was e-mailed and is open until next_attempt_at (docs/schedules.md). */
    status: text('status').$type<'pending' | 'retrying' | 'awaiting_customer' | 'succeeded' | 'failed' | 'cancelled'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    lockedUntil: ts('locked_until'),
    paymentId: text('payment_id'),
    lastFailureCode: text('last_failure_code'),
    lastFailureMessage: text('last_failure_message'),
    /** The checkout session e-mailed to the customer for this occurrence (one at most: its payment link). */
    checkoutSessionId: text('checkout_session_id').unique(),
    createdAt: createdAt(),
    completedAt: ts('completed_at'),
  },
  (t) => [
    uniqueIndex('schedule_runs_occurrence_idx').on(t.scheduleId, t.dueAt),
    index('schedule_runs_pending_idx').on(t.nextAttemptAt).where(sql`status in ('pending', 'retrying')`),
    index('schedule_runs_awaiting_idx').on(t.nextAttemptAt).where(sql`status = 'awaiting_customer'`),
  ],
);
export type ScheduleRun = typeof scheduleRuns.$inferSelect;

/** The stored form of a customer e-mail's view (EmailView, src/domain/notifications/email/view.ts). */
export interface OutboxEmailView {
  amount: string | null;
  currency: string | null;
  /** Only the brand and the last four digits. */
  card: { brand: string | null; last4: string | null } | null;
  /** How the customer paid (payments and refunds); absent on rows written before methods were recorded. */
  paymentMethod?: PaymentMethod | null;
  transactionId: string | null;
  refundId: string | null;
  scheduleReference: string | null;
  merchantReferenceId: string | null;
  description: string | null;
  failureMessage: string | null;
  /** An occurrence's payment link (schedule.payment_link_sent); expiresAt in ISO 8601. */
  payLink: { url: string; expiresAt: string; reason: 'pay_by_link' | 'authentication_required' } | null;
  /** A free trial that started (schedule.created of a subscription link's trial): when it ends, the first charge, ISO 8601. */
  trialEndsAt?: string | null;
  /** What a payment bought, for the receipt's lines; absent on rows written before payments recorded it. */
  sale?: PaymentSale | null;
  /** The language the customer asked in, when the e-mail answers a request of theirs (the subscriptions page link). */
  locale?: string | null;
}

/**
 * The outbox: one row per event, written in the same transaction as the change it reports.
 * Delivery state for the callback and the customer e-mail lives on the row so a worker can
 * claim it with FOR UPDATE SKIP LOCKED.
 */
export const outboxEvents = pgTable(
  'outbox_events',
  {
    id: text('id').primaryKey(),
    integratorId: text('integrator_id')
      .notNull()
      .references(() => integrators.id),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    /** The payment the event reports on (its data's transaction_id), written with the event: a payment's timeline is looked up by it. */
    paymentId: text('payment_id'),
    createdAt: createdAt(),
    callbackUrl: text('callback_url'),
    callbackState: text('callback_state').$type<'no_destination' | 'pending' | 'delivered' | 'failed'>().notNull().default('no_destination'),
    callbackAttempts: integer('callback_attempts').notNull().default(0),
    callbackNextAt: ts('callback_next_at'),
    callbackLockedUntil: ts('callback_locked_until'),
    callbackDeliveredAt: ts('callback_delivered_at'),
    emailTo: text('email_to'),
    /** What the customer e-mail says (src/domain/notifications/email/view.ts), written with the event when there is one to send. */
    emailView: jsonb('email_view').$type<OutboxEmailView>(),
    emailState: text('email_state').$type<'none' | 'pending' | 'sent' | 'saved' | 'failed'>().notNull().default('none'),
    emailAttempts: integer('email_attempts').notNull().default(0),
    emailNextAt: ts('email_next_at'),
    emailLockedUntil: ts('email_locked_until'),
    emailSentAt: ts('email_sent_at'),
    emailLastError: text('email_last_error'),
  },
  (t) => [
    index('outbox_integrator_created_idx').on(t.integratorId, t.createdAt, t.id),
    index('outbox_integrator_type_idx').on(t.integratorId, t.type, t.createdAt, t.id),
    // A payment's timeline in the console: the events that report on the payment.
    index('outbox_integrator_payment_idx').on(t.integratorId, t.paymentId),
    index('outbox_callback_due_idx').on(t.callbackNextAt).where(sql`callback_state = 'pending'`),
    index('outbox_email_due_idx').on(t.emailNextAt).where(sql`email_state = 'pending'`),
  ],
);
export type OutboxEvent = typeof outboxEvents.$inferSelect;

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => outboxEvents.id),
    attempt: integer('attempt').notNull(),
    startedAt: ts('started_at').notNull(),
    latencyMs: integer('latency_ms'),
    statusCode: integer('status_code'),
    error: text('error'),
  },
  (t) => [index('webhook_attempts_event_idx').on(t.eventId)],
);
export type WebhookAttempt = typeof webhookAttempts.$inferSelect;

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** Integrator id, or a scope such as `checkout:<session>` for browser calls. */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    requestHash: text('request_hash').notNull(),
    state: text('state').$type<'running' | 'done'>().notNull(),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    lockedUntil: ts('locked_until').notNull(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_expires_idx').on(t.expiresAt)],
);

/** The sandbox acquirer's own tables: its vault, charges, refunds and idempotency records. */
export const sandboxVault = pgTable('sandbox_vault', {
  token: text('token').primaryKey(),
  /** AES-256-GCM ciphertext of the card number, under a key derived from the master key. */
  numberEnc: text('number_enc').notNull(),
  brand: text('brand').notNull(),
  last4: text('last4').notNull(),
  expMonth: integer('exp_month').notNull(),
  expYear: integer('exp_year').notNull(),
  fingerprint: text('fingerprint').notNull(),
  createdAt: createdAt(),
});

export const sandboxCharges = pgTable('sandbox_charges', {
  id: text('id').primaryKey(),
  amountMinor: money('amount_minor').notNull(),
  currency: text('currency').notNull(),
  refundedMinor: money('refunded_minor').notNull().default(sql`0`),
  /** Test-card behaviour carried to later refunds (e.g. refunds that fail). */
  behaviour: text('behaviour').notNull().default('normal'),
  createdAt: createdAt(),
});

export const sandboxOperations = pgTable('sandbox_operations', {
  idempotencyKey: text('idempotency_key').primaryKey(),
  operation: text('operation').notNull(),
  requestHash: text('request_hash').notNull(),
  result: jsonb('result').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
});

/**
 * Counters of the velocity limits (src/api/rate-limits.ts) on PostgreSQL, shared by every
 * process: one row per limited key, its points in the current window and when the window ends.
 * The layout is the one rate-limiter-flexible's Drizzle store reads and writes.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    points: integer('points').notNull().default(0),
    expire: ts('expire'),
  },
  (t) => [index('rate_limits_expire_idx').on(t.expire)],
);

export type ConsoleRole = 'owner' | 'staff';

/**
 * People who sign in to the merchant console (/console), each belonging to one integrator.
 * Passwords are Argon2id hashes (PHC strings); a user invited but not yet set up has none.
 * Failed sign-ins and the lockout live here so every process counts together.
 */
export const consoleUsers = pgTable(
  'console_users',
  {
    id: text('id').primaryKey(),
    integratorId: text('integrator_id')
      .notNull()
      .references(() => integrators.id),
    /** Lower-cased; one account per address across all integrators (sign-in is by e-mail alone). */
    email: text('email').notNull().unique(),
    role: text('role').$type<ConsoleRole>().notNull(),
    passwordHash: text('password_hash'),
    passwordChangedAt: ts('password_changed_at'),
    /**
     * Fingerprint of the seed's password (or password_hash) last applied: a seed re-applied at
     * start sets the password only when the seed's value changed, so a password changed in the
     * console is not reset by a restart.
     */
    passwordSeedSha256: text('password_seed_sha256'),
    /** The role the seed last applied: a re-applied seed changes the role only when its own value changed. */
    roleSeed: text('role_seed').$type<ConsoleRole>(),
    failedSignIns: integer('failed_sign_ins').notNull().default(0),
    lockedUntil: ts('locked_until'),
    /** TOTP secret (base32), AES-256-GCM under the master key; set at enrolment, used once enabled. */
    totpSecretEnc: text('totp_secret_enc'),
    totpEnabledAt: ts('totp_enabled_at'),
    /** The last TOTP time step accepted: a code is never accepted twice. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** sha256 of the one-time invite token (null once used or for seeded users). */
    inviteTokenHash: text('invite_token_hash').unique(),
    inviteExpiresAt: ts('invite_expires_at'),
    lastSignInAt: ts('last_sign_in_at'),
    createdAt: createdAt(),
  },
  (t) => [index('console_users_integrator_idx').on(t.integratorId)],
);
export type ConsoleUser = typeof consoleUsers.$inferSelect;

/**
 * Console sessions, server-side so every process shares them. Only the sha256 of the cookie's
 * token is stored. `stage` is `password` between a correct password and the TOTP code.
 */
export const consoleSessions = pgTable(
  'console_sessions',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => consoleUsers.id, { onDelete: 'cascade' }),
    stage: text('stage').$type<'password' | 'complete'>().notNull(),
    createdAt: createdAt(),
    lastSeenAt: ts('last_seen_at').notNull(),
    /** The absolute end, whatever the activity. */
    expiresAt: ts('expires_at').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('console_sessions_user_idx').on(t.userId), index('console_sessions_expires_idx').on(t.expiresAt)],
);
export type ConsoleSession = typeof consoleSessions.$inferSelect;

/**
 * The console's audit log (PCI DSS 10.2): every console action and sign-in, written in the
 * transaction that makes the change. The actor's e-mail is copied so the entry outlives the user;
 * `integrator_id` is null only for a sign-in attempt with an unknown e-mail.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    integratorId: text('integrator_id').references(() => integrators.id),
    actorUserId: text('actor_user_id'),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    target: text('target'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    at: ts('at').notNull(),
  },
  (t) => [index('audit_log_integrator_idx').on(t.integratorId, t.id), index('audit_log_at_idx').on(t.at)],
);
export type AuditEntry = typeof auditLog.$inferSelect;

/**
 * Console e-mails (invitations): a mail-only queue, apart from the outbox, because the outbox is
 * what integrators read through GET /api/v1/events and these carry one-time sign-up links. The
 * message is sealed (AES-256-GCM under the master key); the mailer sends and retries it like a
 * customer e-mail.
 */
/**
 * A console user's TOTP recovery codes: each works once at sign-in's second step instead of a code
 * from the app. Stored only as an HMAC-SHA256 keyed by the user's TOTP secret (src/domain/accounts/
 * recovery-codes.ts says why); the rows go with the user, and with their TOTP when it is turned off.
 */
export const consoleRecoveryCodes = pgTable(
  'console_recovery_codes',
  {
    userId: text('user_id')
      .notNull()
      .references(() => consoleUsers.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
    usedAt: ts('used_at'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);

export const consoleMail = pgTable(
  'console_mail',
  {
    id: text('id').primaryKey(),
    /** The integrator whose console the mail is about; none for an operator's mail. */
    integratorId: text('integrator_id').references(() => integrators.id),
    /** The invited (locked-out, reset) user; the row goes with them. None for `address_taken` and operators' mail. */
    userId: text('user_id').references(() => consoleUsers.id, { onDelete: 'cascade' }),
    /** The locked-out operator (`operator_locked`); the row goes with them. */
    operatorId: text('operator_id').references(() => operators.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'invite' | 'locked' | 'address_taken' | 'second_factor_reset' | 'operator_locked'>().notNull(),
    emailTo: text('email_to').notNull(),
    /** JSON of the message's variables, sealed (it holds the invite link). */
    payloadEnc: text('payload_enc').notNull(),
    state: text('state').$type<'pending' | 'sent' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAt: ts('next_at'),
    lockedUntil: ts('locked_until'),
    sentAt: ts('sent_at'),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [index('console_mail_due_idx').on(t.nextAt).where(sql`state = 'pending'`), index('console_mail_user_idx').on(t.userId)],
);
export type ConsoleMail = typeof consoleMail.$inferSelect;

/**
 * One row: proof of which master key sealed this database's secrets, never the key itself (an
 * HMAC of a fixed label under a key derived from it, src/master-key.ts). A process whose key gives
 * another MAC refuses to start instead of sealing new secrets under the wrong key.
 */
export const masterKeyCheck = pgTable('master_key_check', {
  id: integer('id').primaryKey().default(1),
  mac: text('mac').notNull(),
  createdAt: createdAt(),
});

/**
 * Operators (support): who runs paylink for its integrators. Not merchant users: their own table,
 * sessions and audit log, signed in at /operator with the console's rules (Argon2id, lockout, TOTP).
 */
export const operators = pgTable('operators', {
  id: text('id').primaryKey(),
  /** Lower-cased. */
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  passwordChangedAt: ts('password_changed_at').notNull(),
  failedSignIns: integer('failed_sign_ins').notNull().default(0),
  lockedUntil: ts('locked_until'),
  /** TOTP secret (base32), AES-256-GCM under the master key. */
  totpSecretEnc: text('totp_secret_enc'),
  totpEnabledAt: ts('totp_enabled_at'),
  totpLastStep: bigint('totp_last_step', { mode: 'number' }),
  lastSignInAt: ts('last_sign_in_at'),
  createdAt: createdAt(),
});
export type Operator = typeof operators.$inferSelect;

/** Operator sessions, as console sessions: only the sha256 of the cookie's token is stored. */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    operatorId: text('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    stage: text('stage').$type<'password' | 'complete'>().notNull(),
    createdAt: createdAt(),
    lastSeenAt: ts('last_seen_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('operator_sessions_operator_idx').on(t.operatorId), index('operator_sessions_expires_idx').on(t.expiresAt)],
);

export type OperatorSession = typeof operatorSessions.$inferSelect;

/** An operator's TOTP recovery codes, as the console's (console_recovery_codes): HMAC-SHA256 keyed by their TOTP secret. */
export const operatorRecoveryCodes = pgTable(
  'operator_recovery_codes',
  {
    operatorId: text('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
    usedAt: ts('used_at'),
  },
  (t) => [primaryKey({ columns: [t.operatorId, t.codeHash] })],
);

/**
 * One-time links that make an operator account. `email` null: the start banner's link, good only
 * while no operator exists; otherwise `npm run admin -- create-operator EMAIL`'s, for that address.
 * Only the sha256 of the token is stored; a used link has `used_at`.
 */
export const operatorSetupTokens = pgTable('operator_setup_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  email: text('email'),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
  createdAt: createdAt(),
});

/** Everything operators do and every operator sign-in event, written in the transaction that makes the change. */
export const operatorAudit = pgTable(
  'operator_audit',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    operatorId: text('operator_id'),
    operatorEmail: text('operator_email'),
    action: text('action').notNull(),
    /** The integrator acted on, if any. */
    integratorId: text('integrator_id').references(() => integrators.id),
    target: text('target'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    at: ts('at').notNull(),
  },
  (t) => [index('operator_audit_at_idx').on(t.at), index('operator_audit_integrator_idx').on(t.integratorId, t.id)],
);
export type OperatorAuditEntry = typeof operatorAudit.$inferSelect;
