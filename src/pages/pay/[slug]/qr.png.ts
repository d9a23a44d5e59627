import { methodNotAllowed } from '../../../api/endpoint.ts';
import { qrEndpoint } from '../../../api/qr-endpoint.ts';

/** The link's QR code as a 512-pixel PNG. */
export const GET = qrEndpoint('png');
export const ALL = methodNotAllowed(['GET']);
