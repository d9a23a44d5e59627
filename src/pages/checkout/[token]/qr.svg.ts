import { methodNotAllowed } from '../../../api/endpoint.ts';
import { qrEndpoint } from '../../../api/qr-endpoint.ts';

/** The QR Ph code the checkout waits on, as SVG (shown on the page); 404 when none waits. */
export const GET = qrEndpoint('svg', 'checkout');
export const ALL = methodNotAllowed(['GET']);
