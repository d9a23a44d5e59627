import type { Integrator } from '../../db/schema.ts';
import type { DomainContext } from '../context.ts';
import { findIntegratorById } from '../integrators/service.ts';
import type { Actor } from './audit.ts';
import type { ConsoleIdentity, RequestOrigin } from './sessions.ts';

/**
 * A console user acting on their integrator's payments, refunds and schedules: the same
 * services the API calls, given the integrator the user belongs to and the actor to audit.
 */
export interface ConsoleAction {
  integrator: Integrator;
  actor: Actor;
}

export async function consoleAction(app: DomainContext, identity: ConsoleIdentity, from: RequestOrigin): Promise<ConsoleAction> {
  const integrator = await findIntegratorById(app.db, identity.user.integratorId);
  // A session outlives nothing it belongs to: users are deleted with their integrator's seed entry.
  if (!integrator) throw new Error('invariant: a console session names an integrator that does not exist');
  return { integrator, actor: { integratorId: integrator.id, userId: identity.user.id, email: identity.user.email, role: identity.user.role, ...from } };
}
