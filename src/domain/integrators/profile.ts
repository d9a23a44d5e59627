import { and, count, eq } from 'drizzle-orm';
import { type Integrator, integrators, links } from '../../db/schema.ts';
import { type IntegratorUpdate, integratorUpdateSchema } from '../../schemas/integrator.ts';
import { parseWith } from '../../schemas/parse.ts';
import { type Actor, recordAudit } from '../accounts/audit.ts';
import type { DomainContext } from '../context.ts';
import { invalidFields, theRow } from '../errors.ts';
import { methodsMisfit } from '../links/payment-methods.ts';
import { callbackUrlProblem } from '../notifications/callback-url.ts';
import { linkKeyFor } from './link-keys.ts';

/** What an integrator may see of its own account (never secrets; the link key is publishable), and how many links it has. */
export async function integratorProfile(app: DomainContext, integrator: Integrator): Promise<{ integrator: Integrator; linkCount: number; linkKey: string }> {
  const [row] = await app.db
    .select({ n: count() })
    .from(links)
    .where(and(eq(links.integratorId, integrator.id), eq(links.system, false)));
  return { integrator, linkCount: row?.n ?? 0, linkKey: await linkKeyFor(app, integrator) };
}

/**
 * PATCH /api/v1/integrator and the console's Developers page: settings the integrator changes
 * itself; a callback URL is checked as any other. The console passes who acted, for the audit log.
 */
export async function updateIntegratorSettings(app: DomainContext, integrator: Integrator, input: IntegratorUpdate, actor?: Actor) {
  const url = input.default_callback_url;
  const support = input.support_email;
  const methods = input.default_payment_methods;
  if (url) {
    const problem = callbackUrlProblem(url, app.config.allowPrivateCallbacks);
    if (problem) throw invalidFields({ default_callback_url: [problem] });
  }
  if (methods) {
    // As a link's own methods: only what the acquirer takes now (a later change of acquirer leaves the rest unoffered).
    const misfit = methodsMisfit(await app.connectors.forIntegrator(integrator.id), methods);
    if (misfit) throw invalidFields({ default_payment_methods: [misfit] });
  }
  if (url === undefined && support === undefined && methods === undefined) return integratorProfile(app, integrator);
  const now = app.now();
  const updated = await app.db.transaction(async (tx) => {
    const rows = await tx
      .update(integrators)
      .set({
        ...(url !== undefined ? { defaultCallbackUrl: url } : {}),
        ...(support !== undefined ? { supportEmail: support } : {}),
        ...(methods !== undefined ? { defaultPaymentMethods: methods } : {}),
        updatedAt: now,
      })
      .where(eq(integrators.id, integrator.id))
      .returning();
    if (actor && url !== undefined) await recordAudit(tx, actor, 'callback_url.changed', url ?? '(none)', now);
    if (actor && support !== undefined) await recordAudit(tx, actor, 'support_email.changed', support ?? '(none)', now);
    if (actor && methods !== undefined) await recordAudit(tx, actor, 'payment_methods.changed', methods?.join(', ') ?? '(every method)', now);
    return rows;
  });
  // From now on its events that name no callback_url go nowhere (callback state no_destination): said once, here.
  if (url === null && integrator.defaultCallbackUrl !== null)
    app.log.warn('integrator has no default callback URL: its events that name no callback_url are recorded as no_destination and sent to no one', {
      integrator_id: integrator.id,
    });
  return integratorProfile(app, theRow(updated, 'the updated integrator'));
}

/** The console's form: an address, or nothing to clear it, read with the API's own schema. */
export async function changeSupportEmail(app: DomainContext, integrator: Integrator, raw: string, actor: Actor) {
  const parsed = parseWith(integratorUpdateSchema, { support_email: raw.trim() === '' ? null : raw.trim() });
  if (!parsed.ok) throw invalidFields(parsed.messages);
  return updateIntegratorSettings(app, integrator, parsed.value, actor);
}

/** The console's form: the ticked methods in their order, or null for every method the acquirer takes, read with the API's own schema. */
export async function changeDefaultPaymentMethods(app: DomainContext, integrator: Integrator, chosen: string[] | null, actor: Actor) {
  const parsed = parseWith(integratorUpdateSchema, { default_payment_methods: chosen });
  if (!parsed.ok) throw invalidFields(Object.fromEntries(Object.entries(parsed.messages).map(([k, v]) => [k.replace(/\.\d+$/, ''), v])));
  return updateIntegratorSettings(app, integrator, parsed.value, actor);
}

/** The console's form: a URL, or nothing to clear it, read with the API's own schema. */
export async function changeDefaultCallbackUrl(app: DomainContext, integrator: Integrator, raw: string, actor: Actor) {
  const parsed = parseWith(integratorUpdateSchema, { default_callback_url: raw.trim() === '' ? null : raw.trim() });
  if (!parsed.ok) throw invalidFields(parsed.messages);
  return updateIntegratorSettings(app, integrator, parsed.value, actor);
}
