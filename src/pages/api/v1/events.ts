import { apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { eventPageView } from '../../../api/presenters/events.ts';
import { invalidFields } from '../../../domain/errors.ts';
import { listEvents } from '../../../domain/notifications/events.ts';
import { eventsQuerySchema } from '../../../schemas/events.ts';
import { parseWith } from '../../../schemas/parse.ts';

/** GET /api/v1/events?after=<event id | timestamp>&limit=&type=: the integrator's events and their delivery state. */
export const GET = apiEndpoint({
  run: async ({ app, integrator, url }) => {
    const query = parseWith(eventsQuerySchema, Object.fromEntries(url.searchParams));
    if (!query.ok) throw invalidFields(query.messages);
    return { code: 'OK.00.00', data: eventPageView(await listEvents(app, integrator, query.value)) };
  },
});
export const ALL = methodNotAllowed(['GET']);
