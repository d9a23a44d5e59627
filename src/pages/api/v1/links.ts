import { apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { linkPageView } from '../../../api/presenters/links.ts';
import { invalidFields } from '../../../domain/errors.ts';
import { listLinks } from '../../../domain/links/service.ts';
import { linksQuerySchema } from '../../../schemas/link.ts';
import { parseWith } from '../../../schemas/parse.ts';

/** GET /api/v1/links: newest first, cursor-paged, filtered (docs/api.md, "Lists"). */
export const GET = apiEndpoint({
  run: async ({ app, integrator, url }) => {
    const query = parseWith(linksQuerySchema, Object.fromEntries(url.searchParams));
    if (!query.ok) throw invalidFields(query.messages);
    return { code: 'OK.00.00', data: linkPageView(await listLinks(app.db, integrator, query.value), app.origin()) };
  },
});
export const ALL = methodNotAllowed(['GET']);
