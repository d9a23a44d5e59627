import { methodNotAllowed } from '../../../api/endpoint.ts';
import { qrEndpoint } from '../../../api/qr-endpoint.ts';

/** The link's QR code as SVG (for print layouts and the console). */
export const GET = qrEndpoint('svg');
export const ALL = methodNotAllowed(['GET']);
