import { anyJsonObject, apiEndpoint, methodNotAllowed } from '../../../api/endpoint.ts';
import { requestLocale } from '../../../api/page-locale.ts';
import { presentCompletedRegistration } from '../../../api/presenters/cards.ts';
import { submitRegistrationCard } from '../../../domain/cards/service.ts';

/** The hosted registration page's card submission (same origin, JSON; see src/components/CardForm.tsx). */
export const POST = apiEndpoint({
  auth: 'none',
  browser: true,
  idempotent: false,
  body: anyJsonObject,
  run: async ({ app, params, body, clientIp, request }) =>
    presentCompletedRegistration(await submitRegistrationCard(app, params.token ?? '', body, clientIp, requestLocale(request)), params.token ?? ''),
});
export const ALL = methodNotAllowed(['POST']);
