import { apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { integratorView } from '../../../api/presenters/integrators.ts';
import { integratorProfile, updateIntegratorSettings } from '../../../domain/integrators/profile.ts';
import { integratorUpdateSchema } from '../../../schemas/integrator.ts';

/** The authenticated integrator's own account: a cheap way to check a token works. */
export const GET = apiEndpoint({
  run: async ({ app, integrator }) => ({ code: 'OK.00.00', data: { integrator: integratorView(await integratorProfile(app, integrator)) } }),
});

/** PATCH /api/v1/integrator `{ "default_callback_url": "https://…" | null, "support_email": "help@…" | null }`. */
export const PATCH = apiEndpoint({
  body: integratorUpdateSchema,
  whileSuspended: true,
  run: async ({ app, integrator, body }) => ({
    code: 'OK.00.00',
    data: { integrator: integratorView(await updateIntegratorSettings(app, integrator, body)) },
  }),
});
export const ALL = methodNotAllowed(['GET', 'PATCH']);
