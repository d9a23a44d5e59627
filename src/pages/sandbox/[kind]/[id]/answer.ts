import { methodNotAllowed } from '../../../../api/endpoint.ts';
import { sandboxAnswer } from '../../../../api/sandbox-pages.ts';

/** The buttons of the sandbox's scan and authorisation pages (a plain form post). */
export const POST = sandboxAnswer;
export const ALL = methodNotAllowed(['POST']);
