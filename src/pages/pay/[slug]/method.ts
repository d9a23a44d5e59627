import { startMethodStaticLink } from '../../../api/checkout-endpoints.ts';
import { methodNotAllowed } from '../../../api/endpoint.ts';

/** A static link's start of a payment by QR Ph, an e-wallet, online banking or BillEase (JSON or a no-script form post). */
export const POST = startMethodStaticLink;
export const ALL = methodNotAllowed(['POST']);
