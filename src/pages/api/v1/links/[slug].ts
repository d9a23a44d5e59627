import { apiEndpoint, methodNotAllowed } from '../../../../api/endpoint.ts';
import { linkView } from '../../../../api/presenters/links.ts';
import { getLink } from '../../../../domain/links/service.ts';

/** GET /api/v1/links/{slug}: one of the integrator's links. */
export const GET = apiEndpoint({
  run: async ({ app, integrator, params }) => ({
    code: 'OK.00.00',
    data: { link: linkView(await getLink(app.db, integrator, String(params.slug ?? '')), app.origin()) },
  }),
});
export const ALL = methodNotAllowed(['GET']);
