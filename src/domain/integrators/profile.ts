import { count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import type { Integrator } from '../../db/schema.ts';
import { links } from '../../db/schema.ts';

/** What GET /api/v1/integrator shows an integrator about its own account (never secrets). */
export async function integratorProfile(db: DbOrTx, integrator: Integrator) {
  const [row] = await db.select({ n: count() }).from(links).where(eq(links.integratorId, integrator.id));
  return {
    id: integrator.id,
    name: integrator.name,
    email: integrator.email,
    refund_capabilities: { default: 'full_partial', ...integrator.refundCapabilities },
    links: row?.n ?? 0,
    created_at: integrator.createdAt.toISOString(),
  };
}
