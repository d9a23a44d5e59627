import { z } from 'zod';
import { fieldModes, fieldPaths } from './fields.ts';
import { listQuerySchema, pageSchema } from './pagination.ts';

/**
 * A payment link as the API shows it (GET /api/v1/links, /links/{slug}). `kind` says how it is
 * paid: `static` — its page /pay/{slug} takes payments as it is (the dynamic POST works too);
 * `dynamic` — some field is system-filled, so it is paid only through the dynamic POST to
 * /pay/{slug}, which answers with a generated payment form.
 */
const fieldPath = z.enum(fieldPaths);

export const linkViewSchema = z.object({
  id: z.string().describe('The link id (lnk_…).'),
  slug: z.string().describe('The link’s address: /pay/{slug}.'),
  url: z.string().describe('The payment page address (absolute when PUBLIC_URL is set).'),
  kind: z.enum(['static', 'dynamic']).describe('static: payable at its URL as it is; dynamic: only through the dynamic POST (it has system-filled fields).'),
  active: z.boolean().describe('Whether it takes payments; an inactive link answers 404.'),
  title: z.string().describe('Shown as the page heading.'),
  description: z.string().nullable().describe('Shown under the title.'),
  currency: z.string().describe('ISO 4217 code.'),
  amount: z.string().nullable().describe('Fixed amount, decimal string; null when the customer enters it.'),
  min_amount: z.string().nullable().describe('Least amount a customer may enter.'),
  max_amount: z.string().nullable().describe('Most a customer may enter.'),
  brand_color: z.string().nullable().describe('Brand colour, #rrggbb.'),
  logo_url: z.string().nullable().describe('Where the logo is served from.'),
  labels: z.partialRecord(fieldPath, z.string()).describe('Custom labels of customer fields.'),
  fields: z.partialRecord(fieldPath, z.enum(fieldModes)).describe('Field modes: customer, system or hidden (fields not named use the defaults).'),
  callback_url: z.string().nullable().describe('Where its payments’ events go when the payment names none.'),
  expires_at: z.string().nullable().describe('When it stops taking payments.'),
  max_payments: z.number().int().nullable().describe('How many successful payments it takes.'),
  success_url: z.string().nullable().describe('Where the receipt’s “Return to merchant” goes.'),
  cancel_url: z.string().nullable().describe('Where the form’s cancel link goes.'),
  locale: z.string().nullable().describe('The payment page’s language.'),
  created_at: z.string().describe('When it was created.'),
  updated_at: z.string().describe('When it was last changed.'),
});
export type LinkView = z.infer<typeof linkViewSchema>;
export const linkPageSchema = pageSchema(linkViewSchema);

/** GET /api/v1/links. */
export const linksQuerySchema = listQuerySchema({
  active: z.enum(['true', 'false'], { error: 'must be true or false' }).optional().describe('Only active (true) or inactive (false) links.'),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as PHP')
    .optional()
    .describe('Only links in this currency.'),
});
export type LinksQuery = z.infer<typeof linksQuerySchema>;
