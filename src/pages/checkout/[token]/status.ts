import { checkoutStatusGet, checkoutStatusPost } from '../../../api/checkout-endpoints.ts';
import { methodNotAllowed } from '../../../api/endpoint.ts';

/** Where the checkout stands: polled by the page (GET, JSON); the no-script "I have paid" button (POST, 303 back). */
export const GET = checkoutStatusGet;
export const POST = checkoutStatusPost;
export const ALL = methodNotAllowed(['GET', 'POST']);
