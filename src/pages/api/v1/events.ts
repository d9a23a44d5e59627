import { apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { eventPageView, legacyEventPageView } from '../../../api/presenters/events.ts';
import { invalidFields } from '../../../domain/errors.ts';
import { listEvents, listEventsAfter } from '../../../domain/notifications/events.ts';
import { EVENTS_PAGE_DEFAULT, eventsQuerySchema } from '../../../schemas/events.ts';
import { parseWith } from '../../../schemas/parse.ts';

/**
 * GET /api/v1/events: the integrator's events and their delivery state, newest first with
 * `starting_after` / `ending_before`; with `after=<event id | timestamp>`, the legacy feed
 * (oldest first, `next_after`, 50 a page by default).
 */
export const GET = apiEndpoint({
  run: async ({ app, integrator, url }) => {
    const query = parseWith(eventsQuerySchema, Object.fromEntries(url.searchParams));
    if (!query.ok) throw invalidFields(query.messages);
    const q = query.value;
    if (q.after !== undefined) {
      const limit = url.searchParams.has('limit') ? q.limit : EVENTS_PAGE_DEFAULT;
      return { code: 'OK.00.00', data: legacyEventPageView(await listEventsAfter(app, integrator, { after: q.after, limit, type: q.type })) };
    }
    return { code: 'OK.00.00', data: eventPageView(await listEvents(app, integrator, q)) };
  },
});
export const ALL = methodNotAllowed(['GET']);
