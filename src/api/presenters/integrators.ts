import type { Integrator } from '../../db/schema.ts';
import type { IntegratorView } from '../../schemas/integrator.ts';

/** GET /api/v1/integrator: the account as its owner sees it (never secrets). */
export function integratorView({ integrator, linkCount }: { integrator: Integrator; linkCount: number }): IntegratorView {
  return {
    id: integrator.id,
    name: integrator.name,
    email: integrator.email,
    refund_capabilities: { default: 'full_partial', ...integrator.refundCapabilities },
    default_callback_url: integrator.defaultCallbackUrl,
    support_email: integrator.supportEmail,
    links: linkCount,
    created_at: integrator.createdAt.toISOString(),
  };
}
