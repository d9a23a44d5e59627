import { apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { newLinkOf, withWireFields } from '../../../api/link-input.ts';
import { linkPageView, linkView } from '../../../api/presenters/links.ts';
import { invalidFields } from '../../../domain/errors.ts';
import { createLink } from '../../../domain/links/editor.ts';
import { listLinks } from '../../../domain/links/service.ts';
import { LINK_BODY_LIMIT, linkCreateSchema, linksQuerySchema } from '../../../schemas/link.ts';
import { parseWith } from '../../../schemas/parse.ts';

/** GET /api/v1/links: newest first, cursor-paged, filtered (docs/api.md, "Lists"). */
export const GET = apiEndpoint({
  run: async ({ app, integrator, url }) => {
    const query = parseWith(linksQuerySchema, Object.fromEntries(url.searchParams));
    if (!query.ok) throw invalidFields(query.messages);
    return { code: 'OK.00.00', data: linkPageView(await listLinks(app.db, integrator, query.value), app.origin()) };
  },
});

/** POST /api/v1/links: a new static or dynamic link (docs/api.md, "Links"). */
export const POST = apiEndpoint({
  body: linkCreateSchema,
  bodyLimit: LINK_BODY_LIMIT,
  run: async ({ app, integrator, body }) => ({
    code: 'OK.00.00',
    data: { link: linkView(await withWireFields(() => createLink(app, integrator, newLinkOf(body))), app.origin()) },
  }),
});
export const ALL = methodNotAllowed(['GET', 'POST']);
