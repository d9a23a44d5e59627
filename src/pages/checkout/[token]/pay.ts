import { payBySessionToken } from '../../../api/checkout-endpoints.ts';
import { methodNotAllowed } from '../../../api/endpoint.ts';

/** The checkout form's card submission (same origin, JSON; see src/components/CardForm.tsx). */
export const POST = payBySessionToken;
export const ALL = methodNotAllowed(['POST']);
