import { methodNotAllowed } from '../../../api/endpoint.ts';
import { registrationReturn } from '../../../api/registration-endpoints.ts';

/** Where the acquirer sends the customer back after confirming a card setup (Stripe's return_url). */
export const GET = registrationReturn;
export const ALL = methodNotAllowed(['GET']);
