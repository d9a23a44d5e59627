import { startProviderStaticLink } from '../../../api/checkout-endpoints.ts';
import { methodNotAllowed } from '../../../api/endpoint.ts';

/** A static link's PayMongo card form start: no card data comes here. */
export const POST = startProviderStaticLink;
export const ALL = methodNotAllowed(['POST']);
