import {
  busyPage,
  type ConsoleRequestContext,
  clearSessionCookie,
  readPreSessionForm,
  requestOrigin,
  sessionToken,
  setSessionCookie,
} from '../../api/console.ts';
import { consoleRefusal } from '../../api/console-forms.ts';
import type { RequestOrigin } from '../../domain/accounts/sessions.ts';
import { completeSecondFactor, signIn } from '../../domain/accounts/sessions.ts';
import type { DomainContext } from '../../domain/context.ts';
import { DomainError, type Messages } from '../../domain/errors.ts';
import type { ConsoleAstro } from '../entry.ts';

/**
 * The sign-in pages' forms, for the console's accounts and for the operator's (src/operator/actions/
 * sign-in.ts) alike: the busy refusal before any work, the per-address failure limit, one answer for
 * every refused password. They come before any session, so they do not go through the console's
 * entry: their forms carry the pre-session token (double submit) instead.
 */
export interface PreSessionAstro extends Omit<ConsoleAstro, 'response'> {
  response: { status?: number; readonly headers: Headers };
}

/** What the page shows again after a refused form. */
export interface SignInOutcome {
  messages: Messages;
  email: string;
}

type Outcome = { kind: 'signed-in'; token: string } | { kind: 'second-factor'; token: string } | { kind: 'refused' } | { kind: 'locked'; until: Date };

/** One kind of account's sign-in: where its pages are, its session cookie and its two steps. */
export interface SignInDoor {
  /** `/console` or `/operator`: the sign-in pages are `${base}/sign-in` and `${base}/sign-in/code`. */
  base: string;
  /** Said after a refused password: who learns of a lock. */
  refusedPassword: string;
  token(ctx: ConsoleRequestContext): string | undefined;
  setCookie(ctx: ConsoleRequestContext, token: string): void;
  clearCookie(ctx: ConsoleRequestContext): void;
  password(app: DomainContext, input: { email: string; password: string }, from: RequestOrigin): Promise<Outcome>;
  code(app: DomainContext, pending: string, code: string, from: RequestOrigin): Promise<Outcome>;
}

/** The merchants' console. A locked account answers as a wrong password does: only its owner learns of the lock (by e-mail). */
export const consoleDoor: SignInDoor = {
  base: '/console',
  refusedPassword:
    'The email or password is not right. Check both and try again. After many failed sign-ins an account is locked for a while; its owner gets an e-mail.',
  token: sessionToken,
  setCookie: setSessionCookie,
  clearCookie: clearSessionCookie,
  password: signIn,
  code: completeSecondFactor,
};

/** A refusal said in one sentence above the form, with the wait when it has one. */
function refuse(astro: PreSessionAstro, error: unknown): Messages {
  const refused = consoleRefusal(error);
  astro.response.status = refused.status;
  if (error instanceof DomainError && error.retryAfterSeconds !== undefined) astro.response.headers.set('retry-after', String(error.retryAfterSeconds));
  return { '(request)': Object.values(refused.messages).flat() };
}

/** Email and password: signed in (or on to the code), else the refusal; `next` is already safe. */
export async function signInWithPassword(astro: PreSessionAstro, next: string, door: SignInDoor = consoleDoor): Promise<SignInOutcome | Response> {
  const app = astro.locals.paylink;
  try {
    app.passwords.assertRoom();
  } catch (error) {
    if (error instanceof DomainError) return busyPage(error);
    throw error;
  }
  const form = await readPreSessionForm(astro);
  if (form instanceof Response) return form;
  const email = form.field('email').slice(0, 254);
  const password = form.field('password');
  const ip = astro.locals.clientIp ?? 'unknown';
  if (!email.trim() || !password) {
    astro.response.status = 422;
    return { email, messages: { '(request)': ['Enter your email and password.'] } };
  }
  let counted = false;
  try {
    await app.rateLimits.beginSignIn(ip);
    counted = true;
    const outcome = await door.password(app, { email, password }, requestOrigin(astro));
    if (outcome.kind === 'signed-in' || outcome.kind === 'second-factor') {
      await app.rateLimits.signInDidNotFail(ip);
      door.setCookie(astro, outcome.token);
      return astro.redirect(outcome.kind === 'signed-in' ? next : `${door.base}/sign-in/code?next=${encodeURIComponent(next)}`, 303);
    }
    astro.response.status = 401;
    return { email, messages: { '(request)': [door.refusedPassword] } };
  } catch (error) {
    // Refused before any password was checked (too busy): not a failed sign-in.
    if (counted) await app.rateLimits.signInDidNotFail(ip);
    return { email, messages: refuse(astro, error) };
  }
}

/** The code from the authenticator app, for the session waiting on its second step. */
export async function signInWithCode(astro: PreSessionAstro, next: string, door: SignInDoor = consoleDoor): Promise<SignInOutcome | Response> {
  const app = astro.locals.paylink;
  const pending = door.token(astro);
  if (!pending) return astro.redirect(`${door.base}/sign-in`, 303);
  const form = await readPreSessionForm(astro);
  if (form instanceof Response) return form;
  const ip = astro.locals.clientIp ?? 'unknown';
  try {
    await app.rateLimits.beginSignIn(ip);
    const outcome = await door.code(app, pending, form.field('code'), requestOrigin(astro));
    if (outcome.kind === 'signed-in') {
      await app.rateLimits.signInDidNotFail(ip);
      door.setCookie(astro, outcome.token);
      return astro.redirect(next, 303);
    }
    if (outcome.kind === 'refused') {
      door.clearCookie(astro);
      return astro.redirect(`${door.base}/sign-in`, 303);
    }
    if (outcome.kind === 'locked') {
      door.clearCookie(astro);
      astro.response.status = 423;
      return {
        email: '',
        messages: { '(request)': [`This account is locked after too many failed sign-ins. Try again after ${outcome.until.toISOString().slice(11, 16)} UTC.`] },
      };
    }
    astro.response.status = 401;
    return { email: '', messages: { code: ['is neither the current code from your authenticator app nor an unused recovery code'] } };
  } catch (error) {
    return { email: '', messages: refuse(astro, error) };
  }
}
