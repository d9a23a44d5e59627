import { startMethodBySessionToken } from '../../../api/checkout-endpoints.ts';
import { methodNotAllowed } from '../../../api/endpoint.ts';

/** Starts a payment by QR Ph, an e-wallet, online banking or BillEase (JSON from the page's script, or a no-script form post). */
export const POST = startMethodBySessionToken;
export const ALL = methodNotAllowed(['POST']);
