import { quoteStaticLink } from '../../../api/checkout-endpoints.ts';
import { methodNotAllowed } from '../../../api/endpoint.ts';

/** A static link's running total: quantities, tip and promotion code as the customer chose them. */
export const POST = quoteStaticLink;
export const ALL = methodNotAllowed(['POST']);
