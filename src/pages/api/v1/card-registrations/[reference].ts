import { apiEndpoint, methodNotAllowed } from '../../../../api/endpoint.ts';
import { registrationView } from '../../../../api/presenters/cards.ts';
import { getCardRegistration } from '../../../../domain/cards/service.ts';

/** A card registration: state, brand, last 4 and expiry (never the number). */
export const GET = apiEndpoint({
  run: async ({ app, integrator, params }) => ({
    code: 'OK.00.00',
    data: { card_registration: registrationView(await getCardRegistration(app, integrator, String(params.reference))) },
  }),
});
export const ALL = methodNotAllowed(['GET']);
