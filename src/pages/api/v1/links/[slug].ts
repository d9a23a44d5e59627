import { apiEndpoint, methodNotAllowed } from '../../../../api/endpoint.ts';
import { linkPatchOf, withWireFields } from '../../../../api/link-input.ts';
import { linkView } from '../../../../api/presenters/links.ts';
import { updateLink } from '../../../../domain/links/editor.ts';
import { getLink } from '../../../../domain/links/service.ts';
import { LINK_BODY_LIMIT, linkUpdateSchema } from '../../../../schemas/link.ts';

/** GET /api/v1/links/{slug}: one of the integrator's links. */
export const GET = apiEndpoint({
  run: async ({ app, integrator, params }) => ({
    code: 'OK.00.00',
    data: { link: linkView(await getLink(app.db, integrator, String(params.slug ?? '')), app.origin()) },
  }),
});

/** PATCH /api/v1/links/{slug}: change settings (null clears one); `active: false` deactivates, `true` reactivates. */
export const PATCH = apiEndpoint({
  body: linkUpdateSchema,
  bodyLimit: LINK_BODY_LIMIT,
  run: async ({ app, integrator, params, body }) => ({
    code: 'OK.00.00',
    data: { link: linkView(await withWireFields(() => updateLink(app, integrator, String(params.slug ?? ''), linkPatchOf(body))), app.origin()) },
  }),
});
export const ALL = methodNotAllowed(['GET', 'PATCH']);
