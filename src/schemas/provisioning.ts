import { z } from 'zod';
import { fieldModes, fieldPaths } from './fields.ts';

/** PAYLINK_SEED: integrators, their links and sandbox cards (docs/provisioning.md). */
const decimalAmount = z.union([z.string(), z.number()]).transform(String);
const fieldPath = z.enum(fieldPaths);

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

export const refundCapabilitySchema = z.enum(['full_partial', 'full', 'none']);

export const seedIntegratorSchema = z
  .object({
    name: z.string().trim().min(1).max(120),
    email: z.email(),
    token: z
      .string()
      .min(32, 'must be at least 32 characters')
      .max(512)
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
    secret: z.string().refine((s) => Buffer.byteLength(s, 'utf8') >= 32, 'must be at least 32 bytes'),
    webhook_secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=]{32,}$/, 'must be whsec_ followed by at least 24 base64-encoded bytes')
      .optional(),
    refund_capabilities: z.record(z.string(), refundCapabilitySchema).default({}),
    links: z.array(seedLinkSchema).default([]),
    cards: z.array(seedCardSchema).default([]),
  })
  .strict();

export const seedSchema = z.object({ integrators: z.array(seedIntegratorSchema).default([]) }).strict();

export type Seed = z.infer<typeof seedSchema>;
export type SeedIntegrator = z.infer<typeof seedIntegratorSchema>;
export type SeedLink = z.infer<typeof seedLinkSchema>;
