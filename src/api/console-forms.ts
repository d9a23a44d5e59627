import { randomBytes } from 'node:crypto';
import { DomainError, type Messages } from '../domain/errors.ts';
import { catalogue, type StatusCode } from './catalogue.ts';

/**
 * A console action's refusal as the person sees it: the catalogue's code and description (the
 * API's words for the same refusal) and the messages of each field. Other errors go on.
 */
export interface ConsoleRefusal {
  code: StatusCode;
  description: string;
  messages: Messages;
  status: number;
}

export function consoleRefusal(error: unknown): ConsoleRefusal {
  if (!(error instanceof DomainError)) throw error;
  const messages: Messages = typeof error.messages === 'string' || !error.messages ? { '(request)': [error.messages ?? error.message] } : error.messages;
  return { code: error.code, description: catalogue[error.code].description, messages, status: error.httpStatus ?? catalogue[error.code].http };
}

/** The messages not shown beside a field of the form, as sentences ("field: message" for a field the form lacks). */
export const generalMessages = (messages: Messages, fields: readonly string[] = []) =>
  Object.entries(messages)
    .filter(([key]) => !fields.includes(key))
    .flatMap(([key, list]) => list.map((m) => (key.startsWith('(') ? m : `${key}: ${m}`)));

/**
 * A one-time value a form carries so that sending it twice (a double click, the browser
 * resubmitting after Back or Reload) is one action: it becomes the action's idempotency key.
 */
export const newFormNonce = () => randomBytes(18).toString('base64url');
export const isFormNonce = (value: string) => /^[A-Za-z0-9_-]{24}$/.test(value);

/** The idempotency key of a console refund: its form's nonce, apart from the API's keys. */
export const consoleRefundKey = (nonce: string) => `console-refund:${nonce}`;
