import { apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { invalidFields } from '../../../domain/errors.ts';
import { listEvents } from '../../../domain/notifications/events.ts';
import { eventsQuerySchema } from '../../../schemas/events.ts';
import { issuesToMessages } from '../../../schemas/parse.ts';

/** GET /api/v1/events?after=<event id | timestamp>&limit=&type=: the integrator's events and their delivery state. */
export const GET = apiEndpoint({
  run: async ({ app, integrator, url }) => {
    const parsed = eventsQuerySchema.safeParse(Object.fromEntries(url.searchParams));
    if (!parsed.success) throw invalidFields(issuesToMessages(parsed.error.issues));
    return { code: 'OK.00.00', data: { ...(await listEvents(app.db, integrator.id, parsed.data)) } };
  },
});
export const ALL = methodNotAllowed(['GET']);
