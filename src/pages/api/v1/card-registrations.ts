import { apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { presentCreatedRegistration, registrationPageView } from '../../../api/presenters/cards.ts';
import { createCardRegistration, listCardRegistrations } from '../../../domain/cards/service.ts';
import { invalidFields } from '../../../domain/errors.ts';
import { cardRegistrationCreateSchema, cardRegistrationsQuerySchema } from '../../../schemas/card-registration.ts';
import { parseWith } from '../../../schemas/parse.ts';

/** Starts a card registration: the reply's `link` opens the hosted page for the customer. */
export const POST = apiEndpoint({
  body: cardRegistrationCreateSchema,
  run: async ({ app, integrator, body }) => presentCreatedRegistration(await createCardRegistration(app, integrator, body)),
});

/** GET /api/v1/card-registrations: newest first, cursor-paged, filtered (docs/api.md, "Lists"). */
export const GET = apiEndpoint({
  run: async ({ app, integrator, url }) => {
    const query = parseWith(cardRegistrationsQuerySchema, Object.fromEntries(url.searchParams));
    if (!query.ok) throw invalidFields(query.messages);
    return { code: 'OK.00.00', data: registrationPageView(await listCardRegistrations(app, integrator, query.value)) };
  },
});
export const ALL = methodNotAllowed(['GET', 'POST']);
