import { startProviderBySessionToken } from '../../../api/checkout-endpoints.ts';
import { methodNotAllowed } from '../../../api/endpoint.ts';

/** The PayMongo card form's start (src/components/PaymongoCardForm.tsx): no card data comes here. */
export const POST = startProviderBySessionToken;
export const ALL = methodNotAllowed(['POST']);
