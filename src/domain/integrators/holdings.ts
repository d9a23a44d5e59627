import { and, eq } from 'drizzle-orm';
import { cardRegistrations, integrators, links } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import type { ProvisioningResult } from './provisioning.ts';

/**
 * What the database holds when this start applied nothing (no seed, not the first start; or a
 * worker process, which applies no seed): every process's banner says the same counts.
 */
export async function existingProvisioning(app: DomainContext): Promise<ProvisioningResult> {
  const [integratorCount, linkCount, cardCount, demo] = await Promise.all([
    app.db.$count(integrators),
    app.db.$count(links, eq(links.system, false)),
    app.db.$count(cardRegistrations, eq(cardRegistrations.status, 'active')),
    app.db.$count(links, and(eq(links.slug, 'demo'), eq(links.system, false))),
  ]);
  return { integrators: integratorCount, links: linkCount, cards: cardCount, ...(demo > 0 ? { demoKept: true } : {}) };
}
