import { apiEndpoint, methodNotAllowed } from '../../../../../api/endpoint.ts';
import { presentRunNow } from '../../../../../api/presenters/schedules.ts';
import { runScheduleNow } from '../../../../../domain/schedules/run-now.ts';

/** POST /api/v1/schedules/{reference}/run (sandbox only): charge the next occurrence now. */
export const POST = apiEndpoint({
  run: async ({ app, integrator, params }) => {
    const reference = String(params.reference ?? '');
    return presentRunNow(reference, await runScheduleNow(app, integrator, reference));
  },
});
export const ALL = methodNotAllowed(['POST']);
