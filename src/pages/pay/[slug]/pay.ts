import { payStaticLink } from '../../../api/checkout-endpoints.ts';
import { methodNotAllowed } from '../../../api/endpoint.ts';

/** A static link's card submission: the first one creates the session named by the page's token. */
export const POST = payStaticLink;
export const ALL = methodNotAllowed(['POST']);
