import type { APIRoute } from 'astro';
import { answerSimulatedPayment } from '../domain/checkout/simulated.ts';
import { DomainError } from '../domain/errors.ts';
import { readTextBody } from './body.ts';
import { clientIpOf, errorResponse, ownOrigins } from './endpoint.ts';
import { assertSameOriginForm } from './same-origin.ts';

/** The answers each sandbox page offers. */
const answers = { scan: ['approve', 'decline'], authorise: ['approve', 'decline', 'expire'] } as const;

/** A sandbox page: `scan` (a QR Ph code's "Scan to pay") or `authorise` (e-wallets, online banking, BillEase). */
export type SandboxPageKind = keyof typeof answers;
export const isSandboxPageKind = (kind: string | undefined): kind is SandboxPageKind => kind === 'scan' || kind === 'authorise';

/**
 * POST /sandbox/{scan|authorise}/{id}/answer: the sandbox page's buttons. Same-origin checked
 * (src/api/same-origin.ts), counted like a payment attempt from the address; the scan page comes
 * back to itself (it says how it went), the authorisation page sends the customer back to the
 * merchant's return address, as a wallet or bank would. An unknown id goes back to the page (404).
 */
export const sandboxAnswer: APIRoute = async (context) => {
  const app = context.locals.paylink;
  const kind = context.params.kind;
  if (!isSandboxPageKind(kind))
    return errorResponse(
      app,
      new DomainError('ER.02.34', 'Resource not found', { messages: { path: ['does not exist'] } }),
      context.url.pathname,
      context.locals.requestId,
    );
  const id = context.params.id ?? '';
  const page = `/sandbox/${kind}/${encodeURIComponent(id)}`;
  try {
    assertSameOriginForm(context.request, ownOrigins(app, context.url));
    const answer = new URLSearchParams(await readTextBody(context.request, 1024)).get('answer');
    const chosen = (answers[kind] as readonly string[]).includes(answer ?? '') ? (answer as (typeof answers)[typeof kind][number]) : undefined;
    const view = chosen ? await answerSimulatedPayment(app, id, chosen, clientIpOf(context)) : undefined;
    const location = kind === 'authorise' && view ? view.payment.returnUrl : page;
    return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
  } catch (error) {
    return errorResponse(app, error, context.url.pathname, context.locals.requestId);
  }
};
