import { apiEndpoint, methodNotAllowed } from '../../../../../api/endpoint.ts';
import { presentResumption } from '../../../../../api/presenters/schedules.ts';
import { resumeSchedule } from '../../../../../domain/schedules/resume.ts';

/** POST /api/v1/schedules/{reference}/resume: a suspended schedule becomes active again from its next occurrence. */
export const POST = apiEndpoint({
  run: async ({ app, integrator, params }) => presentResumption(await resumeSchedule(app, integrator, String(params.reference ?? ''))),
});
export const ALL = methodNotAllowed(['POST']);
