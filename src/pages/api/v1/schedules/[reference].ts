import { apiEndpoint, methodNotAllowed } from '../../../../api/endpoint.ts';
import { scheduleView } from '../../../../api/presenters/schedules.ts';
import { getSchedule } from '../../../../domain/schedules/service.ts';

/** A schedule: state, the recurrence as given, the next run, and its runs with transaction ids. */
export const GET = apiEndpoint({
  run: async ({ app, integrator, params }) => ({
    code: 'OK.00.00',
    data: { schedule: scheduleView(await getSchedule(app, integrator, String(params.reference))) },
  }),
});
export const ALL = methodNotAllowed(['GET']);
