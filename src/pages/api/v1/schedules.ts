import { apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { schedulePageView } from '../../../api/presenters/schedules.ts';
import { invalidFields } from '../../../domain/errors.ts';
import { listSchedules } from '../../../domain/schedules/service.ts';
import { parseWith } from '../../../schemas/parse.ts';
import { schedulesQuerySchema } from '../../../schemas/schedule.ts';

/** GET /api/v1/schedules: newest first, cursor-paged, filtered (docs/api.md, "Lists"). */
export const GET = apiEndpoint({
  run: async ({ app, integrator, url }) => {
    const query = parseWith(schedulesQuerySchema, Object.fromEntries(url.searchParams));
    if (!query.ok) throw invalidFields(query.messages);
    return { code: 'OK.00.00', data: schedulePageView(await listSchedules(app, integrator, query.value)) };
  },
});
export const ALL = methodNotAllowed(['GET']);
