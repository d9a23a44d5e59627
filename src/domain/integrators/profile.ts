import { count, eq } from 'drizzle-orm';
import type { PaylinkApp } from '../../app.ts';
import { type Integrator, integrators, links } from '../../db/schema.ts';
import type { IntegratorUpdate } from '../../schemas/integrator.ts';
import { invalidFields, theRow } from '../errors.ts';
import { callbackUrlProblem } from '../notifications/callback-url.ts';

/** What an integrator may see of its own account (never secrets), and how many links it has. */
export async function integratorProfile(app: PaylinkApp, integrator: Integrator): Promise<{ integrator: Integrator; linkCount: number }> {
  const [row] = await app.db.select({ n: count() }).from(links).where(eq(links.integratorId, integrator.id));
  return { integrator, linkCount: row?.n ?? 0 };
}

/** PATCH /api/v1/integrator: settings the integrator changes itself; a callback URL is checked as any other. */
export async function updateIntegratorSettings(app: PaylinkApp, integrator: Integrator, input: IntegratorUpdate) {
  const url = input.default_callback_url;
  if (url) {
    const problem = callbackUrlProblem(url, app.config.allowPrivateCallbacks);
    if (problem) throw invalidFields({ default_callback_url: [problem] });
  }
  if (url === undefined) return integratorProfile(app, integrator);
  const updated = await app.db.update(integrators).set({ defaultCallbackUrl: url, updatedAt: app.now() }).where(eq(integrators.id, integrator.id)).returning();
  return integratorProfile(app, theRow(updated, 'the updated integrator'));
}
