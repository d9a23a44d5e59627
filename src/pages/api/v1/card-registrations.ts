import { apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { presentCreatedRegistration } from '../../../api/presenters/cards.ts';
import { createCardRegistration } from '../../../domain/cards/service.ts';
import { cardRegistrationCreateSchema } from '../../../schemas/card-registration.ts';

/** Starts a card registration: the reply's `link` opens the hosted page for the customer. */
export const POST = apiEndpoint({
  body: cardRegistrationCreateSchema,
  run: async ({ app, integrator, body }) => presentCreatedRegistration(await createCardRegistration(app, integrator, body)),
});
export const ALL = methodNotAllowed(['POST']);
