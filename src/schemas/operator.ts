import { z } from 'zod';
import { httpUrlSchema } from './callback.ts';
import { EMAIL_MESSAGE, isEmailAddress } from './email-rules.ts';
import { fieldModes, fieldPaths } from './fields.ts';

/** The operator console's forms (docs/operator.md), read as text fields; blank optional fields are absent. */
const blankIsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v);
const email = z.string().trim().toLowerCase().max(254).refine(isEmailAddress, EMAIL_MESSAGE);

export const newIntegratorSchema = z
  .object({
    name: z.string().trim().min(1, 'is required').max(120, 'must be at most 120 characters'),
    /** The account's contact address (unique: the seed file also names integrators by it). */
    email,
    support_email: z.preprocess(blankIsAbsent, email.optional()),
    default_callback_url: z.preprocess(blankIsAbsent, httpUrlSchema.optional()),
    /** Who gets the one-time invitation to be its first console owner. */
    owner_email: email,
  })
  .strict();

/** The field modes support agreed with an integrator: each spec §2.4 field's mode, or left to the default. */
export const linkFieldModesSchema = z.partialRecord(z.enum(fieldPaths), z.enum(fieldModes));
export type LinkFieldModes = z.infer<typeof linkFieldModesSchema>;
