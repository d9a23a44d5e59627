import { apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { presentDeletion } from '../../../api/presenters/cards.ts';
import { deleteCardRegistration } from '../../../domain/cards/service.ts';
import { referenceBodySchema } from '../../../schemas/schedule.ts';

/** Deletes a card registration and cancels every schedule that uses it (spec §4.2 sample). */
export const DELETE = apiEndpoint({
  body: referenceBodySchema,
  whileSuspended: true,
  idempotent: false,
  run: async ({ app, integrator, body }) => presentDeletion(await deleteCardRegistration(app, integrator, body.reference)),
});
export const ALL = methodNotAllowed(['DELETE']);
