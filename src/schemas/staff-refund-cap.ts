import { z } from 'zod';

/**
 * The owner's staff refund cap form (console, Users page): a currency and two decimal amounts in
 * it, each optional ('' is no cap). The amounts are parsed exactly against the currency by the
 * domain (src/domain/refunds/caps.ts), so here they are only trimmed and bounded.
 */
const optionalDecimal = z
  .string({ error: 'must be a decimal amount such as "5000.00", or empty for no limit' })
  .trim()
  .max(32, 'must be at most 32 characters');

export const staffRefundCapSchema = z
  .object({
    currency: z
      .string({ error: 'is required' })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{3}$/, 'must be a three-letter currency code such as PHP'),
    per_refund: optionalDecimal,
    per_day: optionalDecimal,
  })
  .strict();
