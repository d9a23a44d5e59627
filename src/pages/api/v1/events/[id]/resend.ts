import { apiEndpoint, methodNotAllowed } from '../../../../../api/endpoint.ts';
import { presentResend } from '../../../../../api/presenters/events.ts';
import { resendEvent } from '../../../../../domain/notifications/events.ts';

/** POST /api/v1/events/{id}/resend: deliver the event again (new attempt, same webhook-id). */
export const POST = apiEndpoint({
  whileSuspended: true,
  run: async ({ app, integrator, params }) => presentResend(await resendEvent(app, integrator, String(params.id ?? ''))),
});
export const ALL = methodNotAllowed(['POST']);
