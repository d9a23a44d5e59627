import type { Integrator } from '../../db/schema.ts';
import type { IntegratorView } from '../../schemas/integrator.ts';

/** GET /api/v1/integrator: the account as its owner sees it (never secrets; the link key is publishable). */
export function integratorView({ integrator, linkCount, linkKey }: { integrator: Integrator; linkCount: number; linkKey: string }): IntegratorView {
  return {
    id: integrator.id,
    name: integrator.name,
    email: integrator.email,
    link_key: linkKey,
    refund_capabilities: { default: 'full_partial', ...integrator.refundCapabilities },
    default_callback_url: integrator.defaultCallbackUrl,
    support_email: integrator.supportEmail,
    default_payment_methods: integrator.defaultPaymentMethods,
    links: linkCount,
    status: integrator.suspendedAt ? 'suspended' : 'active',
    suspended_at: integrator.suspendedAt?.toISOString() ?? null,
    created_at: integrator.createdAt.toISOString(),
  };
}
