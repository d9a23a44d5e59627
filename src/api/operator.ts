import type { PaylinkApp } from '../app.ts';
import { type OperatorIdentity, resolveOperatorSession } from '../domain/operators/accounts.ts';
import {
  type ConsolePage,
  type ConsoleRequestContext,
  CSRF_FIELD,
  cookieOptions,
  equalStrings,
  FormRefused,
  formField,
  isHttps,
  readForm,
  refusedPage,
  requestOrigin,
} from './console.ts';

/**
 * The operator console's request concerns, as the merchant console's (src/api/console.ts): its own
 * session cookie (so a browser signed in to both keeps two sessions apart), CSRF tokens under its
 * own label, the same same-origin check on every POST. Sign-in and setup pages reuse the console's
 * pre-session token (double submit).
 */
const sessionCookieName = (secure: boolean) => (secure ? '__Host-paylink_operator' : 'paylink_operator');

export function setOperatorCookie(ctx: ConsoleRequestContext, token: string): void {
  const secure = isHttps(ctx.locals.paylink, ctx.url, ctx.request);
  ctx.cookies.set(sessionCookieName(secure), token, cookieOptions(secure));
}

export function clearOperatorCookie(ctx: ConsoleRequestContext): void {
  const secure = isHttps(ctx.locals.paylink, ctx.url, ctx.request);
  ctx.cookies.delete(sessionCookieName(secure), { path: '/' });
}

export const operatorToken = (ctx: ConsoleRequestContext) => ctx.cookies.get(sessionCookieName(isHttps(ctx.locals.paylink, ctx.url, ctx.request)))?.value;

export const operatorCsrfFor = (app: PaylinkApp, identity: OperatorIdentity) => app.consoleMac.sign(`operator:${identity.sessionId}`);

export interface OperatorPage extends Omit<ConsolePage, 'identity'> {
  identity: OperatorIdentity;
}

/** Every operator page but sign-in and setup starts here: no session, on to sign-in; a bad form, a 403 page. */
export async function openOperatorSession(ctx: ConsoleRequestContext): Promise<OperatorPage | Response> {
  const app = ctx.locals.paylink;
  const identity = await resolveOperatorSession(app, operatorToken(ctx));
  if (!identity) {
    const next = ctx.request.method === 'GET' && ctx.url.pathname !== '/operator' ? `?next=${encodeURIComponent(ctx.url.pathname + ctx.url.search)}` : '';
    return ctx.redirect(`/operator/sign-in${next}`, 303);
  }
  const csrf = operatorCsrfFor(app, identity);
  let form: FormData | undefined;
  if (ctx.request.method === 'POST') {
    try {
      form = await readForm(ctx);
      if (!equalStrings(formField(form, CSRF_FIELD), csrf))
        throw new FormRefused('Its security token is missing or out of date (the page may have been open across a sign-in). Reload the page and try again.');
    } catch (error) {
      if (error instanceof FormRefused) return refusedPage(error.reason, error.status, '/operator');
      throw error;
    }
  } else if (ctx.request.method !== 'GET' && ctx.request.method !== 'HEAD') {
    return new Response('Method not allowed', { status: 405, headers: { allow: 'GET, POST' } });
  }
  return { identity, csrf, from: requestOrigin(ctx), form, field: (name) => formField(form, name) };
}

/** Only paths inside the operator console are followed after sign-in (no open redirect). */
export const safeOperatorNext = (next: string | null) =>
  next && /^\/operator(\/[A-Za-z0-9/_?=&%.-]*)?$/.test(next) && !next.startsWith('//') ? next : '/operator';
