import { providerReturn } from '../../../api/checkout-endpoints.ts';
import { methodNotAllowed } from '../../../api/endpoint.ts';

/** Where the acquirer sends the customer back after 3-D Secure. */
export const GET = providerReturn;
export const ALL = methodNotAllowed(['GET']);
