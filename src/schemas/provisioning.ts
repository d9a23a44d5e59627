import { z } from 'zod';
import { acquirerInputSchema } from './acquirer.ts';
import { fieldModes, fieldPaths } from './fields.ts';
import { paymentMethodIdsSchema } from './link.ts';
import { LINK_KEY_PREFIX, linkKeySchema } from './link-key.ts';
import { linkItemsInputSchema, questionsSchema, tipInputSchema } from './link-sale.ts';
import { locales } from './locales.ts';
import { subscriptionSchema } from './subscription.ts';

/** PAYLINK_SEED: integrators, their links and sandbox cards (docs/provisioning.md). */
const decimalAmount = z.union([z.string(), z.number()]).transform(String);
const fieldPath = z.enum(fieldPaths);
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).max(2048);

export const seedLinkSchema = z
  .object({
    slug: z.string().regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, 'must be 1-64 lowercase letters, digits or dashes, not starting or ending with a dash'),
    title: z.string().trim().min(1).max(120),
    description: z.string().max(1000).optional(),
    currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as PHP'),
    amount: decimalAmount.optional(),
    min_amount: decimalAmount.optional(),
    max_amount: decimalAmount.optional(),
    brand_color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour such as #1a56db')
      .optional(),
    logo: z.string().min(1).optional(),
    labels: z.partialRecord(fieldPath, z.string().trim().min(1).max(80)).default({}),
    fields: z.partialRecord(fieldPath, z.enum(fieldModes)).default({}),
    callback_url: z.url({ protocol: /^https?$/ }).optional(),
    active: z.boolean().default(true),
    expires_at: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date and time with a UTC offset, such as 2027-01-31T23:59:59+08:00' }).optional(),
    max_payments: z.number().int().min(1, 'must be at least 1 (1 makes a single-use link)').optional(),
    success_url: httpUrl.optional(),
    cancel_url: httpUrl.optional(),
    locale: z.enum(locales, { error: `must be one of ${locales.join(', ')}` }).optional(),
    /** Absent: the integrator's default methods. */
    payment_methods: paymentMethodIdsSchema(0).optional(),
    /** What the link sells beyond one amount, as the links API takes it (prices as decimals); absent, not defaulted, so older entries keep their hash. */
    questions: questionsSchema.optional(),
    /** An item's `image` is a file path relative to the seed file, or a data: URL, as `logo`. */
    items: linkItemsInputSchema(z.string().min(1)).optional(),
    tip: tipInputSchema.optional(),
    promotion_codes: z.boolean().optional(),
    subscription: subscriptionSchema.optional(),
  })
  .strict();

export const seedCardSchema = z
  .object({
    reference: z.uuid(),
    number: z.string().regex(/^[\d ]{12,23}$/, 'must be a card number'),
    expiry: z.string().regex(/^(0[1-9]|1[0-2])\/(\d{2}|\d{4})$/, 'must be MM/YY'),
    holder: z.string().max(120).optional(),
  })
  .strict();

/** A console user: `password` (hashed on apply, never stored) or `password_hash` (Argon2id PHC string). */
export const seedUserSchema = z
  .object({
    email: z.email().max(254),
    password: z.string().optional(),
    password_hash: z.string().startsWith('$argon2id$', 'must be an Argon2id hash ($argon2id$v=19$…)').optional(),
    role: z.enum(['owner', 'staff'], { error: 'must be owner or staff' }),
  })
  .strict()
  .refine((u) => (u.password === undefined) !== (u.password_hash === undefined), {
    message: 'give exactly one of password and password_hash',
    path: ['password'],
  });

export const refundCapabilitySchema = z.enum(['full_partial', 'full', 'none']);

export const seedIntegratorSchema = z
  .object({
    name: z.string().trim().min(1).max(120),
    email: z.email(),
    support_email: z.email().optional(),
    default_callback_url: httpUrl.optional(),
    /** The methods a link offers when it names none; null: every method the acquirer takes; absent: left as it is. */
    default_payment_methods: paymentMethodIdsSchema(1).nullable().optional(),
    /** The dynamic-link field modes agreed with support (new links start with them); absent: left as the operator console set them. */
    link_field_modes: z.partialRecord(fieldPath, z.enum(fieldModes)).optional(),
    token: z
      .string()
      .min(32, 'must be at least 32 characters')
      .max(512)
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
      .refine((t) => !t.startsWith(LINK_KEY_PREFIX), `must not start with ${LINK_KEY_PREFIX} (that is a link key's prefix: give it as link_key)`),
    /** The publishable link key (docs/security.md); absent: paylink issues one. */
    link_key: linkKeySchema.optional(),
    secret: z.string().refine((s) => Buffer.byteLength(s, 'utf8') >= 32, 'must be at least 32 bytes'),
    webhook_secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=]{32,}$/, 'must be whsec_ followed by at least 24 base64-encoded bytes')
      .optional(),
    /** Absent: `{}` for a new integrator, and an existing one keeps what it has. */
    refund_capabilities: z.record(z.string(), refundCapabilitySchema).optional(),
    /** The acquirer payments go through (docs/acquirers.md); absent: the sandbox, or what the console set. */
    acquirer: acquirerInputSchema.optional(),
    links: z.array(seedLinkSchema).default([]),
    cards: z.array(seedCardSchema).default([]),
    users: z.array(seedUserSchema).default([]),
  })
  .strict();

export const seedSchema = z.object({ integrators: z.array(seedIntegratorSchema).default([]) }).strict();

export type Seed = z.infer<typeof seedSchema>;
export type SeedIntegrator = z.infer<typeof seedIntegratorSchema>;
export type SeedLink = z.infer<typeof seedLinkSchema>;
export type SeedUser = z.infer<typeof seedUserSchema>;
