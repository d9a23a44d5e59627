import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AstroCookies } from 'astro';
import type { PaylinkApp } from '../app.ts';
import { type ConsoleIdentity, type RequestOrigin, resolveSession } from '../domain/accounts/sessions.ts';
import { DomainError } from '../domain/errors.ts';
import { lastForwardedEntry } from '../http/client-ip.ts';
import { catalogue } from './catalogue.ts';
import { ownOrigins } from './endpoint.ts';
import { assertSameOrigin } from './same-origin.ts';

/**
 * The console's request concerns: the session cookie, CSRF and the same-origin check on every
 * POST. `openConsoleSession` (pages reach it through src/console/entry.ts) answers for them when
 * there is no session (to the sign-in page) or a form is refused (403), and otherwise hands over
 * who is signed in, the form's fields and the CSRF token the page's own forms must carry.
 */
export interface ConsoleRequestContext {
  request: Request;
  url: URL;
  cookies: AstroCookies;
  locals: App.Locals;
  redirect(path: string, status?: 301 | 302 | 303 | 307 | 308): Response;
}

/** The hidden form field that carries the CSRF token. */
export const CSRF_FIELD = '_csrf';

/**
 * Over HTTPS the cookie is `Secure` and `__Host-` prefixed (bound to this host, path /): when
 * PUBLIC_URL is https, or a trusted proxy (PAYLINK_TRUST_PROXY) says the request came over https.
 */
export function isHttps(app: PaylinkApp, url: URL, request?: Request): boolean {
  if (url.protocol === 'https:' || app.origin().startsWith('https:')) return true;
  return app.config.trustProxy && lastForwardedEntry(request?.headers.get('x-forwarded-proto')).toLowerCase() === 'https';
}
const sessionCookieName = (secure: boolean) => (secure ? '__Host-paylink_console' : 'paylink_console');
const signInCookieName = (secure: boolean) => (secure ? '__Host-paylink_sign_in' : 'paylink_sign_in');

export const cookieOptions = (secure: boolean) => ({ httpOnly: true, sameSite: 'lax' as const, secure, path: '/' });

export function setSessionCookie(ctx: ConsoleRequestContext, token: string): void {
  const secure = isHttps(ctx.locals.paylink, ctx.url, ctx.request);
  // No Max-Age: a browser session cookie; the server ends the session on idle or lifetime anyway.
  ctx.cookies.set(sessionCookieName(secure), token, cookieOptions(secure));
}

export function clearSessionCookie(ctx: ConsoleRequestContext): void {
  const secure = isHttps(ctx.locals.paylink, ctx.url, ctx.request);
  ctx.cookies.delete(sessionCookieName(secure), { path: '/' });
}

export const sessionToken = (ctx: ConsoleRequestContext) => ctx.cookies.get(sessionCookieName(isHttps(ctx.locals.paylink, ctx.url, ctx.request)))?.value;

/** Where the request comes from, for the audit log. */
export const requestOrigin = (ctx: ConsoleRequestContext): RequestOrigin => ({
  ip: ctx.locals.clientIp ?? null,
  userAgent: ctx.request.headers.get('user-agent'),
});

/** The session's CSRF token: an HMAC of its id under a key derived from the master key. */
export const csrfTokenFor = (app: PaylinkApp, identity: ConsoleIdentity) => app.consoleMac.sign(`console:${identity.sessionId}`);

export const equalStrings = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** A refused form: the page shows it as a 403 page. */
export class FormRefused extends Error {
  constructor(
    readonly reason: string,
    readonly status: 403 | 413 = 403,
  ) {
    super(reason);
    this.name = 'FormRefused';
  }
}

/** `back`: where its link leads (the operator console's pages pass `/operator`). */
export function refusedPage(reason: string, status: 403 | 413 = 403, back = '/console'): Response {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Form refused · paylink</title></head><body><main><h1>This form was refused</h1><p>${reason}</p><p><a href="${back}">Back to the console</a></p></main></body></html>`;
  return new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
}

/**
 * A refusal answered before the form is read or the page is rendered (too many password checks
 * queued, ER.01.04): a flood of sign-ins then costs the event loop what a no-op request costs.
 * The HTTP server answers a sign-in with it before Astro sees the request (src/http/server.ts);
 * the sign-in page answers with it too, for what reaches the page.
 */
export function busyRefusal(error: DomainError): { status: number; headers: Record<string, string>; body: string } {
  const words = typeof error.messages === 'object' ? Object.values(error.messages).flat().join(' ') : (error.messages ?? error.message);
  return {
    status: error.httpStatus ?? catalogue[error.code].http,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'retry-after': String(error.retryAfterSeconds ?? 1) },
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign-in is busy · paylink</title></head><body><main><h1>Sign-in is busy</h1><p role="alert">${words}</p><p><a href="/console/sign-in">Back to sign-in</a></p></main></body></html>`,
  };
}

export function busyPage(error: DomainError): Response {
  const { status, headers, body } = busyRefusal(error);
  return new Response(body, { status, headers });
}

/** Reads a POSTed form after the same-origin check; anything but a form is refused. */
export async function readForm(ctx: ConsoleRequestContext): Promise<FormData> {
  try {
    assertSameOrigin(ctx.request, ownOrigins(ctx.locals.paylink, ctx.url));
  } catch (error) {
    if (error instanceof DomainError) throw new FormRefused('It was sent from another site. Open the console yourself and submit the form there.');
    throw error;
  }
  const type = ctx.request.headers.get('content-type') ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) throw new FormRefused('It was not sent as a form.');
  try {
    return await ctx.request.formData();
  } catch {
    const limit = ctx.locals.bodyTooLarge;
    if (limit !== undefined)
      throw new FormRefused(`It is larger than the ${limit / 1024 / 1024} MiB a form may be. Send less (a smaller file or shorter text).`, 413);
    throw new FormRefused('It could not be read as a form.');
  }
}

export const formField = (form: FormData | undefined, name: string) => {
  const value = form?.get(name);
  return typeof value === 'string' ? value : '';
};

export interface ConsolePage {
  identity: ConsoleIdentity;
  csrf: string;
  from: RequestOrigin;
  /** The POSTed form (CSRF already checked), or undefined on GET. */
  form: FormData | undefined;
  field(name: string): string;
}

/**
 * Every console page but sign-in starts here. No valid session: a redirect to the sign-in page
 * (303). A POST whose origin or CSRF token is wrong: a 403 page, and nothing changes.
 */
export async function openConsoleSession(ctx: ConsoleRequestContext): Promise<ConsolePage | Response> {
  const app = ctx.locals.paylink;
  const identity = await resolveSession(app, sessionToken(ctx));
  if (!identity) {
    const next = ctx.request.method === 'GET' && ctx.url.pathname !== '/console' ? `?next=${encodeURIComponent(ctx.url.pathname + ctx.url.search)}` : '';
    return ctx.redirect(`/console/sign-in${next}`, 303);
  }
  const csrf = csrfTokenFor(app, identity);
  let form: FormData | undefined;
  if (ctx.request.method === 'POST') {
    try {
      form = await readForm(ctx);
      if (!equalStrings(formField(form, CSRF_FIELD), csrf))
        throw new FormRefused('Its security token is missing or out of date (the page may have been open across a sign-in). Reload the page and try again.');
    } catch (error) {
      if (error instanceof FormRefused) return refusedPage(error.reason, error.status);
      throw error;
    }
  } else if (ctx.request.method !== 'GET' && ctx.request.method !== 'HEAD') {
    return new Response('Method not allowed', { status: 405, headers: { allow: 'GET, POST' } });
  }
  return { identity, csrf, from: requestOrigin(ctx), form, field: (name) => formField(form, name) };
}

/**
 * The sign-in and invitation pages have no session yet: their forms carry a random token that
 * must equal a cookie set with the page (double submit), besides the same-origin check, so
 * another site cannot sign a visitor in to an account of its choosing.
 */
export function preSessionToken(ctx: ConsoleRequestContext): string {
  const secure = isHttps(ctx.locals.paylink, ctx.url, ctx.request);
  const existing = ctx.cookies.get(signInCookieName(secure))?.value;
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  ctx.cookies.set(signInCookieName(secure), token, cookieOptions(secure));
  return token;
}

export async function readPreSessionForm(ctx: ConsoleRequestContext): Promise<{ field(name: string): string } | Response> {
  const secure = isHttps(ctx.locals.paylink, ctx.url, ctx.request);
  const expected = ctx.cookies.get(signInCookieName(secure))?.value;
  try {
    const form = await readForm(ctx);
    if (!expected || !equalStrings(formField(form, CSRF_FIELD), expected)) {
      throw new FormRefused('Its security token is missing or out of date (cookies may be blocked). Reload the page and try again.');
    }
    return { field: (name) => formField(form, name) };
  } catch (error) {
    if (error instanceof FormRefused) return refusedPage(error.reason, error.status);
    throw error;
  }
}

/** Only paths inside the console are followed after sign-in (no open redirect). */
export const safeNext = (next: string | null) => (next && /^\/console(\/[A-Za-z0-9/_?=&%.-]*)?$/.test(next) && !next.startsWith('//') ? next : '/console');
