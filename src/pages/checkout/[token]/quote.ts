import { quoteBySessionToken } from '../../../api/checkout-endpoints.ts';
import { methodNotAllowed } from '../../../api/endpoint.ts';

/** A checkout session's running total: quantities, tip and promotion code as the customer chose them. */
export const POST = quoteBySessionToken;
export const ALL = methodNotAllowed(['POST']);
