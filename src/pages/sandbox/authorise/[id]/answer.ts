import { methodNotAllowed } from '../../../../api/endpoint.ts';
import { sandboxAnswer } from '../../../../api/sandbox-pages.ts';

/** The sandbox authorise page's buttons (a plain form post). */
export const POST = sandboxAnswer('authorise');
export const ALL = methodNotAllowed(['POST']);
