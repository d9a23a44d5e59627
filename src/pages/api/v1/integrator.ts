import { apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { integratorView } from '../../../api/presenters/integrators.ts';
import { integratorProfile } from '../../../domain/integrators/profile.ts';

/** The authenticated integrator's own account: a cheap way to check a token works. */
export const GET = apiEndpoint({
  run: async ({ app, integrator }) => ({ code: 'OK.00.00', data: { integrator: integratorView(await integratorProfile(app, integrator)) } }),
});
export const ALL = methodNotAllowed(['GET']);
