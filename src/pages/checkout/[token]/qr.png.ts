import { methodNotAllowed } from '../../../api/endpoint.ts';
import { qrEndpoint } from '../../../api/qr-endpoint.ts';

/** The QR Ph code the checkout waits on, as PNG (shown on the page, and "Download QR"); 404 when none waits. */
export const GET = qrEndpoint('png', 'checkout');
export const ALL = methodNotAllowed(['GET']);
