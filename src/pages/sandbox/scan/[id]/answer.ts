import { methodNotAllowed } from '../../../../api/endpoint.ts';
import { sandboxAnswer } from '../../../../api/sandbox-pages.ts';

/** The sandbox scan page's buttons (a plain form post). */
export const POST = sandboxAnswer('scan');
export const ALL = methodNotAllowed(['POST']);
