import { z } from 'zod';

/** GET /api/v1/integrator: the account as its owner sees it (never secrets). */
export const integratorViewSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    refund_capabilities: z
      .record(z.string(), z.enum(['full_partial', 'full', 'none']))
      .meta({ description: 'Refund types allowed per card brand; `default` applies to brands not listed.' }),
    links: z.number().int().meta({ description: 'How many payment links the integrator has.' }),
    created_at: z.string().meta({ format: 'date-time' }),
  })
  .strict()
  .meta({ id: 'Integrator' });
export type IntegratorView = z.infer<typeof integratorViewSchema>;

export const integratorReplySchema = z.object({ integrator: integratorViewSchema }).strict();
