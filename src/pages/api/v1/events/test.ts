import { apiEndpoint, methodNotAllowed } from '../../../../api/endpoint.ts';
import { presentTestEvent } from '../../../../api/presenters/events.ts';
import { sendTestEvent } from '../../../../domain/notifications/test-event.ts';

/** POST /api/v1/events/test: a webhook.test event to the default callback URL, delivered like every event. */
export const POST = apiEndpoint({
  idempotent: false,
  whileSuspended: true,
  run: async ({ app, integrator }) => presentTestEvent(await sendTestEvent(app, integrator)),
});
export const ALL = methodNotAllowed(['POST']);
