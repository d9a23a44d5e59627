import { count, eq } from 'drizzle-orm';
import type { PaylinkApp } from '../../app.ts';
import { type Integrator, links } from '../../db/schema.ts';

/** What an integrator may see of its own account (never secrets), and how many links it has. */
export async function integratorProfile(app: PaylinkApp, integrator: Integrator): Promise<{ integrator: Integrator; linkCount: number }> {
  const [row] = await app.db.select({ n: count() }).from(links).where(eq(links.integratorId, integrator.id));
  return { integrator, linkCount: row?.n ?? 0 };
}
