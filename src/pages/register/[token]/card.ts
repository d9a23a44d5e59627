import { anyJsonObject, apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { presentCompletedRegistration } from '../../../api/presenters/cards.ts';
import { submitRegistrationCard } from '../../../domain/cards/service.ts';

/** The hosted registration page's card submission (same origin, JSON; see src/components/CardForm.tsx). */
export const POST = apiEndpoint({
  auth: 'none',
  browser: true,
  idempotent: false,
  body: anyJsonObject,
  run: async ({ app, params, body, clientIp }) =>
    presentCompletedRegistration(await submitRegistrationCard(app, params.token ?? '', body, clientIp), params.token ?? ''),
});
export const ALL = methodNotAllowed(['POST']);
